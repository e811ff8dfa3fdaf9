import math

import hypothesis
import hypothesis.strategies as st
import numpy
import pytest

from kusari.array import configuration, initializers as I, lazy_cupy

FLOATS = [numpy.float16, numpy.float32, numpy.float64]


def _fill(initializer, shape, dtype=numpy.float64):
    array = numpy.empty(shape, dtype=dtype)
    initializer(array)
    return array


def _assert_moments(sample, std):
    """Mean 0 and the given standard deviation, within 6 standard errors
    (the sample is fixed by the seed; 6 SE keeps the check meaningful)."""
    sample = sample.astype(numpy.float64).ravel()
    tolerance = 6 * std / math.sqrt(sample.size)
    assert abs(sample.mean()) < tolerance
    assert abs(sample.std() - std) < tolerance


# (initializer, shape, expected standard deviation, uniform half-width)
SHAPE = (64, 48, 3, 3)                  # fan_in 432, fan_out 576
FAN_IN, FAN_OUT = 48 * 9, 64 * 9
STATISTICS = [
    (I.Normal(0.3), SHAPE, 0.3, None),
    (I.Normal(), SHAPE, 0.05, None),
    (I.LeCunNormal(), SHAPE, math.sqrt(1 / FAN_IN), None),
    (I.LeCunNormal(2.0, fan_option='fan_out'), SHAPE,
     2 * math.sqrt(1 / FAN_OUT), None),
    (I.HeNormal(), SHAPE, math.sqrt(2 / FAN_IN), None),
    (I.HeNormal(0.5, fan_option='fan_out'), SHAPE,
     0.5 * math.sqrt(2 / FAN_OUT), None),
    (I.GlorotNormal(), SHAPE, math.sqrt(2 / (FAN_IN + FAN_OUT)), None),
    (I.Uniform(0.3), SHAPE, 0.3 / math.sqrt(3), 0.3),
    (I.LeCunUniform(), SHAPE, math.sqrt(1 / FAN_IN),
     math.sqrt(3 / FAN_IN)),
    (I.HeUniform(), SHAPE, math.sqrt(2 / FAN_IN), math.sqrt(6 / FAN_IN)),
    (I.HeUniform(fan_option='fan_out'), SHAPE, math.sqrt(2 / FAN_OUT),
     math.sqrt(6 / FAN_OUT)),
    (I.GlorotUniform(3.0), SHAPE, 3 * math.sqrt(2 / (FAN_IN + FAN_OUT)),
     3 * math.sqrt(6 / (FAN_IN + FAN_OUT))),
]


@pytest.mark.parametrize(
    'initializer, shape, std, bound', STATISTICS,
    ids=[f'{type(case[0]).__name__}-{i}' for i, case in enumerate(STATISTICS)])
def test_random_statistics(initializer, shape, std, bound):
    numpy.random.seed(0)
    sample = _fill(initializer, shape)
    _assert_moments(sample, std)
    if bound is not None:
        assert numpy.abs(sample).max() <= bound
        assert numpy.abs(sample).max() > 0.99 * bound


def test_fans_of_a_matrix_are_its_columns_and_rows():
    numpy.random.seed(0)
    sample = _fill(I.HeNormal(), (200, 500))
    _assert_moments(sample, math.sqrt(2 / 500))


def test_get_fans():
    assert I.get_fans((3, 4)) == (4, 3)
    assert I.get_fans((3, 4, 5, 6)) == (4 * 30, 3 * 30)
    assert I.get_fans((2, 3, 5)) == (15, 10)


@pytest.mark.parametrize('shape', [(3,), (), 7])
def test_get_fans_needs_two_dimensions(shape):
    with pytest.raises(ValueError, match='get_fans.*at least 2'):
        I.get_fans(shape)


def test_fan_scaled_needs_two_dimensions():
    with pytest.raises(ValueError, match='HeNormal.*at least 2'):
        _fill(I.HeNormal(), (5,))


@pytest.mark.parametrize('cls', [I.HeNormal, I.LeCunNormal, I.HeUniform,
                                 I.LeCunUniform])
def test_bad_fan_option(cls):
    with pytest.raises(ValueError, match='fan_option.*fan_in, fan_out'):
        cls(fan_option='fan_avg')


def test_glorot_has_no_fan_option():
    with pytest.raises(TypeError):
        I.GlorotNormal(1.0, None, 'fan_in')


@pytest.mark.parametrize('make', [
    I.Normal, I.Uniform, I.LeCunNormal, I.GlorotNormal, I.HeNormal,
    I.LeCunUniform, I.GlorotUniform, I.HeUniform, I.Orthogonal])
def test_numpy_seed_makes_results_reproducible(make):
    numpy.random.seed(3)
    first = _fill(make(), (6, 5))
    numpy.random.seed(3)
    second = _fill(make(), (6, 5))
    numpy.testing.assert_array_equal(first, second)
    assert not numpy.array_equal(first, _fill(make(), (6, 5)))


@pytest.mark.parametrize('rng_factory', [
    numpy.random.RandomState, numpy.random.default_rng])
@pytest.mark.parametrize('make', [
    I.Normal, I.Uniform, I.HeNormal, I.GlorotUniform, I.Orthogonal])
def test_rng_argument(rng_factory, make):
    first = _fill(make(rng=rng_factory(1)), (4, 7))
    numpy.random.seed(5)
    second = _fill(make(rng=rng_factory(1)), (4, 7))
    numpy.testing.assert_array_equal(first, second)
    assert numpy.all(numpy.isfinite(first))


@pytest.mark.parametrize('dtype', FLOATS)
@pytest.mark.parametrize('initializer', [
    I.Normal(), I.HeUniform(), I.GlorotNormal(), I.Orthogonal(), I.NaN(),
    I.Identity(2.0), I.Constant(0.5), I.Zero(), I.One(),
    I.UpsamplingDeconvFilter(), I.DownsamplingConvFilter()],
    ids=lambda v: type(v).__name__)
def test_float_dtypes(dtype, initializer):
    shape = (4, 4) if isinstance(initializer, (I.Identity, I.Orthogonal)) \
        else (4, 4, 2, 2)
    array = _fill(initializer, shape, dtype)
    assert array.dtype == dtype
    if isinstance(initializer, I.NaN):
        assert numpy.isnan(array).all()
    else:
        assert numpy.isfinite(array).all()
        assert numpy.abs(array).max() > 0 or isinstance(initializer, I.Zero)


def test_dtype_attribute_must_match_the_array():
    _fill(I.Normal(dtype=numpy.float32), (2,), numpy.float32)
    with pytest.raises(TypeError, match='Normal.*float16.*float64'):
        _fill(I.Normal(dtype=numpy.float16), (2,), numpy.float64)
    with pytest.raises(TypeError, match='Zero.*float32.*int32'):
        _fill(I.Zero(dtype='float32'), (2,), numpy.int32)


@pytest.mark.parametrize('initializer', [
    I.Normal(), I.Uniform(), I.HeNormal(), I.Orthogonal(), I.NaN(),
    I.UpsamplingDeconvFilter()], ids=lambda v: type(v).__name__)
def test_float_initializers_reject_int_arrays(initializer):
    array = numpy.zeros((2, 2, 3, 3), dtype=numpy.int32)
    with pytest.raises(TypeError, match='floating-point.*int32'):
        initializer(array)
    assert not array.any()


@pytest.mark.parametrize('initializer', [
    I.Zero(), I.One(), I.Constant(7), I.Identity()],
    ids=lambda v: type(v).__name__)
def test_constants_fill_int_arrays(initializer):
    array = numpy.full((3, 3), 5, dtype=numpy.int64)
    initializer(array)
    assert array.dtype == numpy.int64


def test_non_arrays_are_rejected():
    with pytest.raises(TypeError, match='Normal.*NumPy or CuPy.*list'):
        I.Normal()([0.0, 0.0])


def test_constant_values():
    numpy.testing.assert_array_equal(_fill(I.Zero(), (2, 3)), 0)
    numpy.testing.assert_array_equal(_fill(I.One(), (2, 3)), 1)
    numpy.testing.assert_array_equal(_fill(I.Constant(-2.5), (2, 3)), -2.5)
    row = numpy.array([1.0, 2.0, 3.0])
    numpy.testing.assert_array_equal(
        _fill(I.Constant(row), (2, 3)), numpy.stack([row, row]))
    numpy.testing.assert_array_equal(
        _fill(I.Constant(numpy.float32(4)), (2,)), [4, 4])


def test_constant_array_must_broadcast():
    init = I.Constant(numpy.ones(3))
    array = numpy.zeros((2, 4))
    with pytest.raises(ValueError, match=r'Constant.*\(3,\).*\(2, 4\)'):
        init(array)
    assert not array.any()
    # Broadcasting must produce exactly the target shape, not a larger one.
    with pytest.raises(ValueError, match='Constant'):
        I.Constant(numpy.ones((2, 3)))(numpy.zeros(3))


@pytest.mark.parametrize('value', ['1', None, [1, 2], object()])
def test_constant_rejects_non_numbers(value):
    with pytest.raises(TypeError, match='Constant: fill_value'):
        I.Constant(value)


def test_identity():
    numpy.testing.assert_array_equal(
        _fill(I.Identity(), (3, 3)), numpy.eye(3))
    numpy.testing.assert_array_equal(
        _fill(I.Identity(scale=0.5), (4, 4)), 0.5 * numpy.eye(4))


@pytest.mark.parametrize('shape', [(3, 4), (3,), (2, 2, 2), ()])
def test_identity_needs_a_square_matrix(shape):
    with pytest.raises(ValueError, match='Identity.*square 2-D'):
        _fill(I.Identity(), shape)


def _assert_orthogonal(array, scale):
    matrix = array.reshape(len(array), -1) if array.ndim else \
        array.reshape(1, 1)
    rows, cols = matrix.shape
    gram = matrix @ matrix.T if rows <= cols else matrix.T @ matrix
    numpy.testing.assert_allclose(
        gram, scale ** 2 * numpy.eye(min(rows, cols)), atol=1e-12)


@pytest.mark.parametrize('shape', [
    (3, 5), (5, 3), (4, 4), (4, 2, 3), (30, 2, 2), (6,), (1, 1)])
def test_orthogonal(shape):
    numpy.random.seed(0)
    _assert_orthogonal(_fill(I.Orthogonal(), shape), 1.1)
    _assert_orthogonal(_fill(I.Orthogonal(scale=2.0), shape), 2.0)


def test_orthogonal_scalar_gets_a_random_sign():
    numpy.random.seed(0)
    values = {float(_fill(I.Orthogonal(scale=3.0), ())) for _ in range(20)}
    assert values == {-3.0, 3.0}


@pytest.mark.parametrize('shape', [(3, 5), (5, 3), (2, 3, 2)])
def test_orthogonal_values_follow_the_seed_as_chainers(shape):
    # Chainer draws an out x in Gaussian matrix whatever the shape, and
    # orthonormalizes its transpose when it is wide: a seed gives the same
    # weights in both.
    rows, cols = shape[0], math.prod(shape[1:])
    numpy.random.seed(1)
    gaussian = numpy.random.normal(size=(rows, cols))
    q, r = numpy.linalg.qr(gaussian.T if rows < cols else gaussian)
    q = q * numpy.copysign(1.1, numpy.diag(r))
    expected = (q.T if rows < cols else q).reshape(shape)
    numpy.random.seed(1)
    numpy.testing.assert_allclose(_fill(I.Orthogonal(), shape), expected,
                                  rtol=1e-12)


def test_orthogonal_scalar_is_a_coin_flip():
    numpy.random.seed(4)
    flips = numpy.random.randint(2, size=6)
    numpy.random.seed(4)
    values = [float(_fill(I.Orthogonal(scale=3.0), ())) for _ in range(6)]
    assert values == list(3.0 * (2 * flips - 1))
    generator = numpy.random.default_rng(0)
    assert abs(float(_fill(I.Orthogonal(rng=generator), ()))) == 1.1


@hypothesis.given(rows=st.integers(1, 12), cols=st.integers(1, 12),
                  seed=st.integers(0, 2 ** 32 - 1))
def test_orthogonal_property(rows, cols, seed):
    rng = numpy.random.RandomState(seed)
    _assert_orthogonal(_fill(I.Orthogonal(rng=rng), (rows, cols)), 1.1)


@pytest.mark.parametrize('mode, good, bad', [
    ('projection', (3, 5), (5, 3)),
    ('embedding', (5, 3), (3, 5)),
    ('basis', (4, 2, 2), (4, 5)),
])
def test_orthogonal_modes(mode, good, bad):
    _assert_orthogonal(_fill(I.Orthogonal(mode=mode), good), 1.1)
    with pytest.raises(ValueError, match=f'Orthogonal: mode {mode!r}'):
        _fill(I.Orthogonal(mode=mode), bad)


def test_orthogonal_errors():
    with pytest.raises(ValueError, match='Orthogonal: mode must be'):
        I.Orthogonal(mode='square')
    with pytest.raises(ValueError, match='Orthogonal.*empty'):
        _fill(I.Orthogonal(), (0, 3))


def _outer(*vectors):
    return numpy.einsum('i,j->ij', *vectors)


def test_upsampling_filter_is_bilinear():
    array = _fill(I.UpsamplingDeconvFilter(), (3, 3, 4, 3))
    expected = _outer([0.25, 0.75, 0.75, 0.25], [0.5, 1.0, 0.5])
    for i in range(3):
        for j in range(3):
            numpy.testing.assert_allclose(
                array[i, j], expected if i == j else 0)


def test_upsampling_filter_one_channel_per_group():
    array = _fill(I.UpsamplingDeconvFilter(), (2, 1, 2, 2))
    numpy.testing.assert_allclose(array, numpy.full((2, 1, 2, 2), 0.25))


def test_upsampling_filter_1d():
    array = _fill(I.UpsamplingDeconvFilter(), (1, 1, 5))
    numpy.testing.assert_allclose(array[0, 0], [1 / 3, 2 / 3, 1, 2 / 3, 1 / 3])


def test_downsampling_filter_is_the_normalized_linear_filter():
    # Chainer's downsampling filter: the upsampling one, summing to 1.
    array = _fill(I.DownsamplingConvFilter(), (2, 2, 2, 3))
    expected = _outer([0.5, 0.5], [0.5, 1.0, 0.5]) / 2
    numpy.testing.assert_allclose(array[0, 0], expected)
    numpy.testing.assert_allclose(array[1, 1], expected)
    numpy.testing.assert_array_equal(array[0, 1], 0)
    numpy.testing.assert_array_equal(array[1, 0], 0)
    square = _fill(I.DownsamplingConvFilter(), (1, 1, 3, 3))[0, 0]
    numpy.testing.assert_allclose(
        square, _outer([1, 2, 1], [1, 2, 1]) / 16)


@pytest.mark.parametrize('cls', [I.UpsamplingDeconvFilter,
                                 I.DownsamplingConvFilter])
def test_filter_errors(cls):
    with pytest.raises(ValueError, match=f"{cls.__name__}: interpolation"):
        cls('cubic')
    with pytest.raises(ValueError, match=f'{cls.__name__}.*channel'):
        _fill(cls(), (2, 3, 2, 2))
    with pytest.raises(ValueError, match=f'{cls.__name__}.*3 dimensions'):
        _fill(cls(), (2, 2))


def test_generate_array_defaults_to_config_dtype():
    assert I.generate_array(I.Zero(), (2,), numpy).dtype == numpy.float32
    with configuration.using_config('dtype', numpy.dtype(numpy.float64)):
        array = I.generate_array(I.One(), (2, 3), numpy)
    assert array.dtype == numpy.float64 and array.shape == (2, 3)
    numpy.testing.assert_array_equal(array, 1)
    with configuration.using_config('dtype', configuration.mixed16):
        assert I.generate_array(I.Normal(), 4, numpy).dtype == \
            numpy.float16


def test_generate_array_dtype_sources():
    init = I.Normal(dtype=numpy.float64)
    assert I.generate_array(init, (2,), numpy).dtype == numpy.float64
    assert I.generate_array(init, (2,), numpy, 'float64').dtype == \
        numpy.float64
    assert I.generate_array(I.Normal(), (2,), numpy, numpy.float16).dtype \
        == numpy.float16
    with pytest.raises(ValueError, match='generate_array.*float32.*contra'):
        I.generate_array(init, (2,), numpy, numpy.float32)


def test_generate_array_accepts_plain_callables():
    def fill_with_index(array):
        array[...] = numpy.arange(array.size).reshape(array.shape)

    array = I.generate_array(fill_with_index, (2, 2), numpy, numpy.int32)
    numpy.testing.assert_array_equal(array, [[0, 1], [2, 3]])


def test_generate_array_device():
    array = I.generate_array(I.One(), (2,), numpy, device='@numpy')
    assert isinstance(array, numpy.ndarray)
    with pytest.raises(TypeError, match='generate_array: xp'):
        I.generate_array(I.One(), (2,), math)


def test_get_initializer():
    assert isinstance(I.get_initializer(None), I.LeCunNormal)
    constant = I.get_initializer(2.5)
    assert isinstance(constant, I.Constant) and constant.fill_value == 2.5
    assert isinstance(I.get_initializer(numpy.float32(1)), I.Constant)
    array = numpy.arange(3.0)
    assert I.get_initializer(array).fill_value is array
    init = I.HeNormal()
    assert I.get_initializer(init) is init
    assert I.get_initializer(print) is print
    assert I._get_initializer is I.get_initializer
    with pytest.raises(TypeError, match='get_initializer.*str'):
        I.get_initializer('zeros')


def test_default_initializer_is_lecun_normal_of_scale_one():
    numpy.random.seed(0)
    _assert_moments(_fill(I.get_initializer(None), (300, 400)),
                    math.sqrt(1 / 400))


@pytest.mark.gpu
@pytest.mark.parametrize('dtype', FLOATS)
@pytest.mark.parametrize('make', [
    I.Normal, I.HeUniform, I.Orthogonal, I.Zero, I.NaN,
    I.UpsamplingDeconvFilter])
def test_gpu_arrays_are_filled_on_their_device(dtype, make):
    cupy = lazy_cupy.require_cupy()
    array = cupy.zeros((4, 4, 2, 2), dtype=dtype)
    make()(array)
    assert isinstance(array, cupy.ndarray) and array.dtype == dtype
    host = array.get()
    assert numpy.isnan(host).all() if make is I.NaN else \
        numpy.isfinite(host).all()


@pytest.mark.gpu
def test_gpu_generate_array_and_statistics():
    cupy = lazy_cupy.require_cupy()
    cupy.random.seed(0)
    array = I.generate_array(I.HeNormal(), SHAPE, cupy)
    assert isinstance(array, cupy.ndarray) and array.dtype == numpy.float32
    _assert_moments(array.get(), math.sqrt(2 / FAN_IN))
    with pytest.raises(ValueError, match='generate_array: device'):
        I.generate_array(I.One(), (2,), cupy, device='@numpy')


@pytest.mark.gpu
def test_gpu_constant_from_a_host_array():
    cupy = lazy_cupy.require_cupy()
    array = cupy.zeros((2, 3), dtype=numpy.float32)
    I.Constant(numpy.arange(3.0))(array)
    numpy.testing.assert_array_equal(array.get(), [[0, 1, 2], [0, 1, 2]])
