"""shoal's generator: search space -> pruned candidates -> tuner jobs -> tuned database -> emitted
C/CUDA sources. Run as `python -m generator <command>`; see docs/internals.md for the formats."""
