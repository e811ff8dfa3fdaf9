"""What the training workloads share: sizes, inputs, timing and output.

Each workload has one script written against the Chainer API (so that it
times Kusari's drop-in and Chainer 7.8.1 alike) and a PyTorch twin.  A
script times whole training steps over a few short rounds and prints one
JSON line with the median throughput; ``--quick`` makes the rounds fewer
and shorter, for a smoke run.  A script runs on the threads its
environment allows: NumPy's BLAS and PyTorch read ``OMP_NUM_THREADS`` and
``OPENBLAS_NUM_THREADS`` (compare.py sets them), and take every core where
they are unset.
"""
import argparse
import itertools
import json
import statistics
import time
from importlib import metadata

import numpy

N_CLASS = 10
IMAGE = (1, 28, 28)
LENET_BATCH = 64
MLP_UNITS = (784, 1000, 1000, N_CLASS)
MLP_BATCH = 100
N_VOCAB = 10000
LM_UNITS = 200
BPROP_LEN = 35
LM_BATCH = 20
LM_SEGMENTS = 8  # stretches of the token stream, then it repeats
# The model shapes beyond the first four (see each script's docstring).
CIFAR_IMAGE = (3, 32, 32)
RESNET_BATCH, RESNET_CHANNELS = 32, 32
GRU_BATCH, GRU_IN, GRU_UNITS, GRU_LAYERS = 32, 64, 128, 2
GRU_LENGTHS = (10, 40)   # each sequence's length is drawn from this range
ATTENTION_BATCH, ATTENTION_LENGTH, ATTENTION_UNITS = 16, 64, 128
ATTENTION_HEADS, ATTENTION_HIDDEN = 4, 512
VAE_BATCH, VAE_UNITS = 100, (784, 400, 20)
# Full runs: about three seconds of timed steps per process.
ROUNDS, ROUND_SECONDS = 5, 0.6
QUICK_ROUNDS, QUICK_ROUND_SECONDS = 2, 0.2


def parse_options(description, static=False):
    """The command line's options: ``quick`` (``--quick``) and, where the
    script has a static variant, ``static`` (``--static``)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument('--quick', action='store_true',
                        help='fewer, shorter rounds (a smoke run)')
    if static:
        parser.add_argument('--static', action='store_true',
                            help="the model's forward marked with "
                            "chainer.static_graph")
    return parser.parse_args()


def parse_quick(description):
    """Whether ``--quick`` was given on the command line."""
    return parse_options(description).quick


def static_variant(chainer, chain_class):
    """A subclass of ``chain_class`` whose ``forward`` is marked with
    ``chainer.static_graph``: recorded on its first calls, replayed after.
    """
    return type(f'Static{chain_class.__name__}', (chain_class,),
                {'forward': chainer.static_graph(chain_class.forward)})


def classification_batch(batch, shape):
    """Random float32 inputs of ``shape`` per example, int32 labels."""
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((batch,) + shape).astype(numpy.float32)
    t = rng.integers(0, N_CLASS, batch).astype(numpy.int32)
    return x, t


def sequences():
    """GRU_BATCH float32 sequences of GRU_IN features, of lengths drawn
    from GRU_LENGTHS, and one int32 label each."""
    rng = numpy.random.default_rng(0)
    lengths = rng.integers(*GRU_LENGTHS, GRU_BATCH, endpoint=True)
    xs = [rng.standard_normal((n, GRU_IN)).astype(numpy.float32)
          for n in lengths]
    t = rng.integers(0, N_CLASS, GRU_BATCH).astype(numpy.int32)
    return xs, t


def images01(batch, size):
    """Random float32 values in [0, 1), ``(batch, size)``: the inputs of
    the VAE (its Bernoulli likelihood wants them there)."""
    rng = numpy.random.default_rng(0)
    return (rng.random((batch, size)).astype(numpy.float32),)


def token_stream():
    """Random int32 token ids, (LM_BATCH, LM_SEGMENTS * BPROP_LEN + 1).

    Column ``i + 1`` holds the targets of column ``i``.
    """
    rng = numpy.random.default_rng(0)
    shape = (LM_BATCH, LM_SEGMENTS * BPROP_LEN + 1)
    return rng.integers(0, N_VOCAB, shape).astype(numpy.int32)


def segment_starts():
    """The first column of each segment of the stream, round and round."""
    return itertools.cycle(range(0, LM_SEGMENTS * BPROP_LEN, BPROP_LEN))


def _timed(step, reps):
    start = time.perf_counter()
    for _ in range(reps):
        step()
    return time.perf_counter() - start


def per_second(step, units, quick):
    """Median over rounds of ``units`` (done by one step) per second.

    Three untimed steps first let lazy initialisation (optimizer states,
    caches, imports) happen outside the rounds, and a static graph's two
    recordings and first replay (which compiles its fused loops).
    """
    rounds, seconds = ((QUICK_ROUNDS, QUICK_ROUND_SECONDS) if quick
                       else (ROUNDS, ROUND_SECONDS))
    _timed(step, 3)
    reps = max(1, round(seconds / _timed(step, 1)))
    return statistics.median(units * reps / _timed(step, reps)
                             for _ in range(rounds))


def training_step(loss_of, batch, clear_grads, update):
    """One iteration on a fixed batch: the loss, cleared gradients,
    backward, update; each framework gives its own clearing and update."""
    def step():
        loss = loss_of(*batch)
        clear_grads()
        loss.backward()
        update()
    return step


def report_chainer_classifier(chainer, workload, model, optimizer, batch,
                              quick):
    """Time and print the training steps of the Chain ``model`` as a
    classifier of ``batch`` (inputs, labels): softmax cross-entropy,
    ``optimizer`` set up on the model."""
    optimizer.setup(model)
    F = chainer.functions
    step = training_step(lambda x, t: F.softmax_cross_entropy(model(x), t),
                         batch, model.cleargrads, optimizer.update)
    report_iterations(chainer_measured(chainer), workload, step, quick)


def report_torch_classifier(torch, workload, model, optimizer, batch, quick):
    """The PyTorch twin of :func:`report_chainer_classifier`: ``batch`` is
    (inputs, labels) as tensors (the labels of any int dtype)."""
    F = torch.nn.functional
    x, t = batch
    step = training_step(lambda x, t: F.cross_entropy(model(x), t),
                         (x, t.long()), optimizer.zero_grad, optimizer.step)
    report_iterations(f'torch {torch.__version__}', workload, step, quick)


def report_iterations(measured, workload, step, quick):
    """Time ``step`` and print its iterations per second."""
    report(measured, workload, iterations_per_s=per_second(step, 1, quick))


def chainer_measured(chainer):
    """What ``chainer`` is: Kusari's drop-in and Chainer both say 7.8.1."""
    distributions = metadata.packages_distributions().get('chainer', [])
    if len(distributions) == 1:
        name, = distributions
        return f'{name} {metadata.version(name)}'
    # An editable install is known by its path alone.
    return f'chainer {chainer.__version__} at {chainer.__file__}'


def workload_name(workload, static):
    """The workload's name in the output: with ``_static`` for the static
    variant."""
    return f'{workload}_static' if static else workload


def report(measured, workload, **figures):
    """Print one JSON line: what was measured, the workload, its figures."""
    print(json.dumps({'measured': measured, 'workload': workload,
                      **figures}))
