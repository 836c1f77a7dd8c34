#include "shoal.h"

const char *shoal_status_string(shoal_status status)
{
    switch (status) {
    case SHOAL_STATUS_SUCCESS: return "SHOAL_STATUS_SUCCESS: the call succeeded";
    case SHOAL_STATUS_NOT_INITIALIZED: return "SHOAL_STATUS_NOT_INITIALIZED: NULL or destroyed handle";
    case SHOAL_STATUS_INVALID_VALUE: return "SHOAL_STATUS_INVALID_VALUE: an argument is out of range; nothing was touched";
    case SHOAL_STATUS_NOT_SUPPORTED: return "SHOAL_STATUS_NOT_SUPPORTED: valid request this build cannot serve";
    case SHOAL_STATUS_ALLOC_FAILED: return "SHOAL_STATUS_ALLOC_FAILED: host or device allocation failed";
    case SHOAL_STATUS_NO_DEVICE: return "SHOAL_STATUS_NO_DEVICE: no usable CUDA device";
    case SHOAL_STATUS_CUDA_ERROR: return "SHOAL_STATUS_CUDA_ERROR: a CUDA call or kernel launch failed";
    case SHOAL_STATUS_VENDOR_ERROR: return "SHOAL_STATUS_VENDOR_ERROR: cuBLAS failed on a call routed to it";
    }
    return "SHOAL_STATUS_UNKNOWN: not a shoal status value";
}
