"""Records of the reductions, scans, matrix functions, einsum, tensordot,
Fourier transforms, sparse products and forget."""
import warnings

import numpy
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from harness.record import FLOAT16
from harness.record import no_spec
from harness.record import record
from harness.record import sample
from harness.strategies import floats
from harness.strategies import large_floats
from harness.strategies import shapes
from kusari.autograd import functions as F
from kusari.autograd.utils.sparse import CooMatrix

# Long float16 sums and products round at every step.
_LOOSE_FLOAT16 = {FLOAT16: {'forward': {'atol': 5e-2, 'rtol': 5e-2},
                            'backward': {'atol': 5e-2, 'rtol': 5e-2},
                            'double_backward': {'atol': 1e-1, 'rtol': 1e-1}}}


def _reduced_axes(shape):
    """None, an axis or a tuple of axes of ``shape``, all of non-zero
    length (a reduction over an empty axis has no value to check)."""
    ndim = len(shape)
    sized = [a for a in range(ndim) if shape[a] > 0]
    axis = st.sampled_from(sized).flatmap(
        lambda a: st.sampled_from([a, a - ndim])) if sized else st.nothing()
    choices = [st.lists(axis, max_size=len(sized),
                        unique_by=lambda a: a % ndim).map(tuple), axis]
    if all(side > 0 for side in shape):
        choices.append(st.none())
    return st.one_of(*choices)


@st.composite
def _reduction_sample(draw, keepdims=True, values=floats()):
    x = draw(values)
    kwargs = {'axis': draw(_reduced_axes(x.shape))}
    if keepdims:
        kwargs['keepdims'] = draw(st.booleans())
    return sample(x, **kwargs)


@st.composite
def _distinct_floats(draw):
    """Values 0.03 apart or more, in random order: max and min have
    kinks where two of them tie."""
    shape = draw(shapes(max_dims=3))
    size = int(numpy.prod(shape))
    order = draw(st.permutations(range(size)))
    return (numpy.array(order, dtype=numpy.float64) * (4.0 / max(size, 1))
            - 2.0).reshape(shape)


for _name, _reference in (('max', numpy.amax), ('min', numpy.amin)):
    record(_name, getattr(F, _name), reference=_reference,
           inputs=_reduction_sample(values=_distinct_floats()))

for _name in ('argmax', 'argmin'):
    no_spec(_name, 'returns indexes: not differentiable (its gradient is '
                   'None, as in Chainer); tested in test_math_reduction')

record('mean', F.mean, reference=numpy.mean, inputs=_reduction_sample(),
       tolerances=_LOOSE_FLOAT16)


@st.composite
def _weighted_sample(draw):
    x = draw(floats(shape=shapes(min_dims=1, max_dims=3)))
    sized = [a for a in range(x.ndim) if x.shape[a] > 0]
    if sized and draw(st.booleans()):
        axis = draw(st.sampled_from(sized))
        weights = draw(floats(shape=(x.shape[axis],), low=0.5))
        return sample(x, weights, axis=axis - draw(st.sampled_from(
            [0, x.ndim])), keepdims=draw(st.booleans()))
    weights = draw(floats(shape=x.shape, low=0.5))
    return sample(x, weights, axis=draw(_reduced_axes(x.shape)),
                  keepdims=draw(st.booleans()))


def _average_reference(x, weights, axis, keepdims):
    if weights.shape != x.shape:
        shape = [1] * x.ndim
        shape[axis] = -1
        weights = numpy.broadcast_to(weights.reshape(shape), x.shape)
    return ((x * weights).sum(axis=axis, keepdims=keepdims)
            / weights.sum(axis=axis, keepdims=keepdims))


record('average',
       lambda x, w, axis, keepdims: F.average(x, axis, w, keepdims),
       reference=_average_reference, inputs=_weighted_sample(),
       tolerances=_LOOSE_FLOAT16)


def _logsumexp_reference(x, axis):
    shift = x.max(axis=axis, keepdims=True)
    return numpy.log(numpy.exp(x - shift).sum(axis=axis)) + shift.reshape(
        numpy.log(numpy.exp(x - shift).sum(axis=axis)).shape)


record('logsumexp', F.logsumexp, reference=_logsumexp_reference,
       inputs=_reduction_sample(keepdims=False), tolerances=_LOOSE_FLOAT16)
# Magnitudes 10 to 30: exp overflows float16 unless the maximum is
# subtracted first.
record('logsumexp:large', F.logsumexp, reference=_logsumexp_reference,
       inputs=_reduction_sample(keepdims=False, values=large_floats()),
       tolerances=_LOOSE_FLOAT16)

# Values of magnitude below 1.1 and at most 64 factors: no float16
# overflow. Exact zeros are kept out: at two zeros in one lane the second
# derivative of cumprod is not computed (the first one is).
_FACTORS = floats(shape=shapes(max_dims=3, max_side=4), low=-1.1, high=1.1,
                  away_from=[0.0], margin=0.2)
record('prod', F.prod, reference=numpy.prod,
       inputs=_reduction_sample(values=_FACTORS), tolerances=_LOOSE_FLOAT16)


@st.composite
def _scan_sample(draw, values):
    x = draw(values)
    axis = None
    if x.ndim and draw(st.booleans()):
        axis = draw(st.integers(-x.ndim, x.ndim - 1))
    return sample(x, axis=axis)


record('cumsum', F.cumsum, reference=numpy.cumsum,
       inputs=_scan_sample(floats()), tolerances=_LOOSE_FLOAT16)
record('cumprod', F.cumprod, reference=numpy.cumprod,
       inputs=_scan_sample(_FACTORS), tolerances=_LOOSE_FLOAT16)


@st.composite
def _cumprod_zeros_sample(draw):
    """One exact zero per lane: the gradient's special case."""
    x = draw(floats(shape=shapes(min_dims=1, max_dims=2, min_side=1,
                                 max_side=4), low=0.5, high=1.5))
    where = draw(st.integers(0, x.shape[-1] - 1))
    x[..., where] = 0.0
    return sample(x, axis=-1)


record('cumprod:zeros', F.cumprod, reference=numpy.cumprod,
       inputs=_cumprod_zeros_sample(), zero_size=False,
       reason='zeros are placed in every lane of a non-empty last axis; '
              'the main record covers zero-size inputs')

record('batch_l2_norm_squared', F.batch_l2_norm_squared,
       reference=lambda x: (x.reshape(len(x), int(numpy.prod(x.shape[1:])))
       ** 2).sum(axis=1),
       inputs=(floats(shape=shapes(min_dims=2)),), tolerances=_LOOSE_FLOAT16)


def _matrix_shape(draw, batched):
    """``(n, n)``, or ``(m, n, n)`` when batched; n and m up to 4 and 3."""
    n, = draw(shapes(min_dims=1, max_dims=1, max_side=4))
    batch = draw(shapes(min_dims=1, max_dims=1, max_side=3)) if batched \
        else ()
    return batch + (n, n)


@st.composite
def _invertible(draw, batched):
    """Strictly diagonally dominant matrices, of either sign on the
    diagonal: |a_ii| - sum_{j != i} |a_ij| >= 1, so ||A^-1||_inf <= 1
    (Varah) and ||A||_inf <= 4 bound the condition number by 4."""
    shape = _matrix_shape(draw, batched)
    n = shape[-1]
    off_diagonal = draw(floats(shape=shape, low=-1.0, high=1.0)) / max(
        n - 1, 1) * (1 - numpy.eye(n))
    magnitudes = draw(floats(shape=shape[:-1], low=2.0, high=3.0))
    signs = numpy.where(draw(hnp.arrays(bool, shape[:-1])), -1.0, 1.0)
    return off_diagonal + (signs * magnitudes)[..., None] * numpy.eye(n)


@st.composite
def _positive_definite(draw):
    """B B^T + n I with entries of B in [-1, 1]: symmetric, eigenvalues
    in [n, n + n^2], so the condition number is at most 1 + n."""
    shape = _matrix_shape(draw, False)
    b = draw(floats(shape=shape, low=-1.0, high=1.0))
    return b @ b.T + shape[-1] * numpy.eye(shape[-1])


_LINALG_FLOAT16 = {FLOAT16: {'forward': {'atol': 1e-2, 'rtol': 1e-2},
                             'backward': {'atol': 5e-2, 'rtol': 5e-2},
                             'double_backward': {'atol': 1e-1,
                                                 'rtol': 1e-1}}}
for _batched, _inv, _det in ((False, 'inv', 'det'),
                             (True, 'batch_inv', 'batch_det')):
    record(_inv, getattr(F, _inv), reference=numpy.linalg.inv,
           inputs=(_invertible(_batched),), tolerances=_LINALG_FLOAT16)
    record(_det, getattr(F, _det), reference=numpy.linalg.det,
           inputs=(_invertible(_batched),), tolerances=_LINALG_FLOAT16)


def _symmetric(a):
    return (a + a.T) * 0.5


# Only the lower triangle is read: the record differentiates through a
# symmetrization, so finite differences see every entry.
record('cholesky', lambda a: F.cholesky(_symmetric(a)),
       reference=lambda a: numpy.linalg.cholesky(_symmetric(a)),
       inputs=(_positive_definite(),), tolerances=_LINALG_FLOAT16)


def _batch_matmul(a, b, transa, transb):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        return F.batch_matmul(a, b, transa, transb)


def _as_batch_matrices(x, trans):
    x = x.reshape(x.shape + (1,)) if x.ndim == 2 else x
    return x.swapaxes(-1, -2) if trans else x


@st.composite
def _batch_matmul_sample(draw):
    batch, m, k, n = draw(shapes(min_dims=4, max_dims=4, max_side=4))
    transa, transb = draw(st.booleans()), draw(st.booleans())
    # A 2-D operand is a batch of column vectors: the last side of its
    # stored 3-D form is 1.
    a_vector = draw(st.booleans()) and (m if transa else k) == 1
    b_vector = draw(st.booleans()) and (k if transb else n) == 1
    a_shape = (batch, k, m) if transa else (batch, m, k)
    b_shape = (batch, n, k) if transb else (batch, k, n)
    a = draw(floats(shape=a_shape[:2] if a_vector else a_shape))
    b = draw(floats(shape=b_shape[:2] if b_vector else b_shape))
    return sample(a, b, transa=transa, transb=transb)


record('batch_matmul', _batch_matmul,
       reference=lambda a, b, transa, transb: numpy.matmul(
           _as_batch_matrices(a, transa), _as_batch_matrices(b, transb)),
       inputs=_batch_matmul_sample(), tolerances=_LOOSE_FLOAT16)

# (subscripts, the labels of each operand's axes, '...' spelled out)
_EINSUM_CASES = (
    ('ij,jk->ik', ('ij', 'jk')),
    ('i,j', ('i', 'j')),
    ('ij->', ('ij',)),
    ('ii->i', ('ii',)),
    ('ii', ('ii',)),
    ('iij,j->ji', ('iij', 'j')),
    ('ijk,ik->kj', ('ijk', 'ik')),
    ('...i,...i', ('xyi', 'yi')),
    ('ij,jk,kl->il', ('ij', 'jk', 'kl')),
)


@st.composite
def _einsum_sample(draw):
    subscripts, labels = draw(st.sampled_from(_EINSUM_CASES))
    letters = sorted(set(''.join(labels)))
    sizes = dict(zip(letters, draw(shapes(
        min_dims=len(letters), max_dims=len(letters), max_side=4))))
    operands = [draw(floats(shape=tuple(sizes[c] for c in term)))
                for term in labels]
    return sample(*operands, subscripts=subscripts)


record('einsum', lambda *xs, subscripts: F.einsum(subscripts, *xs),
       reference=lambda *xs, subscripts: numpy.einsum(subscripts, *xs),
       inputs=_einsum_sample(), tolerances=_LOOSE_FLOAT16)


@st.composite
def _tensordot_sample(draw):
    free_a, summed, free_b = (draw(shapes(max_dims=2, max_side=4))
                              for _ in range(3))
    if draw(st.booleans()):
        a = draw(floats(shape=free_a + summed))
        b = draw(floats(shape=summed + free_b))
        return sample(a, b, axes=len(summed))
    a_order = draw(st.permutations(range(len(free_a) + len(summed))))
    b_order = draw(st.permutations(range(len(summed) + len(free_b))))
    a_shape = free_a + summed
    b_shape = summed + free_b
    a = draw(floats(shape=tuple(a_shape[i] for i in a_order)))
    b = draw(floats(shape=tuple(b_shape[i] for i in b_order)))
    a_axes = [a_order.index(len(free_a) + i) for i in range(len(summed))]
    b_axes = [b_order.index(i) for i in range(len(summed))]
    return sample(a, b, axes=(a_axes, b_axes))


record('tensordot', F.tensordot,
       reference=lambda a, b, axes: numpy.tensordot(a, b, axes),
       inputs=_tensordot_sample(), tolerances=_LOOSE_FLOAT16)


@st.composite
def _complex_pair(draw):
    shape = draw(shapes(max_dims=2, max_side=4)) + (draw(st.integers(
        1, 5)),)
    return draw(floats(shape=shape)), draw(floats(shape=shape))


for _name in ('fft', 'ifft'):
    record(_name, lambda real, imag, _name=_name: getattr(F, _name)(
        (real, imag)),
        reference=lambda real, imag, _name=_name: (
            lambda z: (z.real, z.imag))(getattr(numpy.fft, _name)(
                real + 1j * imag)),
        inputs=_complex_pair(), tolerances=_LOOSE_FLOAT16)


@st.composite
def _sparse_sample(draw):
    """A sparse operand as (data, row, col) with some padding, a dense
    operand, the side of the sparse one and the transpositions."""
    batch = draw(st.sampled_from([(), (2,)]))
    m, k, n = draw(shapes(min_dims=3, max_dims=3, max_side=4))
    transa, transb = draw(st.booleans()), draw(st.booleans())
    sparse_left = draw(st.booleans())
    sparse_shape = (m, k) if sparse_left else (k, n)
    sparse_trans = transa if sparse_left else transb
    stored = sparse_shape[::-1] if sparse_trans else sparse_shape
    nnz = draw(st.integers(0, stored[0] * stored[1] + 1)) if \
        stored[0] * stored[1] else 0
    row = numpy.array(draw(st.lists(st.integers(0, max(stored[0] - 1, 0)),
                                    min_size=nnz, max_size=nnz)), numpy.int32)
    col = numpy.array(draw(st.lists(st.integers(0, max(stored[1] - 1, 0)),
                                    min_size=nnz, max_size=nnz)), numpy.int32)
    padding = numpy.array(draw(st.lists(st.booleans(), min_size=nnz,
                                        max_size=nnz)), bool)
    row[padding] = -1
    col[padding] = -1
    row = numpy.broadcast_to(row, batch + (nnz,)).copy()
    col = numpy.broadcast_to(col, batch + (nnz,)).copy()
    data = draw(floats(shape=batch + (nnz,)))
    dense_shape = (k, n) if sparse_left else (m, k)
    dense_trans = transb if sparse_left else transa
    dense = draw(floats(shape=batch + (
        dense_shape[::-1] if dense_trans else dense_shape)))
    return sample(data, row, col, dense, sparse_left=sparse_left,
                  shape=stored, transa=transa, transb=transb)


def _sparse_matmul(data, row, col, dense, sparse_left, shape, transa,
                   transb):
    sparse = CooMatrix(data, row.array, col.array, shape)
    operands = (sparse, dense) if sparse_left else (dense, sparse)
    return F.sparse_matmul(*operands, transa=transa, transb=transb)


def _sparse_reference(data, row, col, dense, sparse_left, shape, transa,
                      transb):
    matrices = numpy.zeros(data.shape[:-1] + shape)
    # The reference gets every input as float64, indexes included.
    for index in numpy.ndindex(data.shape):
        if row[index] >= 0:
            position = (int(row[index]), int(col[index]))
            matrices[index[:-1] + position] += data[index]
    a, b = (matrices, dense) if sparse_left else (dense, matrices)
    return numpy.matmul(a.swapaxes(-1, -2) if transa else a,
                        b.swapaxes(-1, -2) if transb else b)


record('sparse_matmul', _sparse_matmul, reference=_sparse_reference,
       inputs=_sparse_sample(), no_grads=(False, True, True, False),
       tolerances=_LOOSE_FLOAT16)

record('forget',
       lambda x, y: F.forget(lambda a, b: F.tanh(a) * b + a, x, y),
       reference=lambda x, y: numpy.tanh(x) * y + x,
       inputs=(floats(shape=(3, 2)), floats(shape=(3, 2))),
       double_backprop=False, zero_size=False,
       reason='forget recomputes on backward and, as in Chainer, refuses '
              'double backpropagation; shapes are not its concern, so '
              'one fixed shape is drawn')
