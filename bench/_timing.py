"""What the overhead scripts share: the workload's size, inputs and timing.

The workload is a chain of small elementwise ops, so that the time is the
framework's per-op bookkeeping, not arithmetic: ``BLOCKS`` repeats of
``exp(tanh(h * w + b))`` on a (4, 4) float32 array, then a sum.
"""
import json
import statistics
import time

import numpy

SHAPE = (4, 4)
BLOCKS = 12
N_OPS = 4 * BLOCKS + 1  # mul, add, tanh, exp per block; the final sum
ROUNDS = 7
ROUND_SECONDS = 0.2


def inputs():
    """x, w, b as float32 arrays; w and b keep every value of h bounded."""
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal(SHAPE).astype(numpy.float32)
    w = rng.uniform(0.5, 1.5, SHAPE).astype(numpy.float32)
    b = rng.uniform(-0.5, 0.5, SHAPE).astype(numpy.float32)
    return x, w, b


def _repeat(step, reps):
    start = time.perf_counter()
    for _ in range(reps):
        step()
    return time.perf_counter() - start


def _calibrate(step):
    """Repetitions that make one round last about ``ROUND_SECONDS``."""
    reps = 1
    while True:
        elapsed = _repeat(step, reps)
        if elapsed >= ROUND_SECONDS / 10:
            return max(1, round(reps * ROUND_SECONDS / elapsed))
        reps *= 2


def microseconds_per_op(step):
    """Median over rounds of one call of ``step``, per op, in µs."""
    # Twice: the first also pays what happens once (caches, lazy imports,
    # a static graph's recordings and its fused loops' compilation).
    _calibrate(step)
    reps = _calibrate(step)
    rounds = [_repeat(step, reps) / reps for _ in range(ROUNDS)]
    return statistics.median(rounds) / N_OPS * 1e6


def report(measured, steps):
    """Time each of ``steps`` (name to callable) and print one JSON line.

    ``measured`` names what was timed, with its version, so that a result
    can't be taken for another framework's.
    """
    result = {'measured': measured, 'ops': N_OPS, 'shape': list(SHAPE)}
    for name, step in steps.items():
        result[f'{name}_us_per_op'] = microseconds_per_op(step)
    print(json.dumps(result))
