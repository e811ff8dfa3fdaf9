import numpy
import pytest

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import testing

CPU = ('use_chainerx_false__chainerx_device_None__use_cuda_false__'
       'cuda_device_None__use_cudnn_never__cudnn_deterministic_false__'
       'autotune_false__cudnn_fast_batch_normalization_false__'
       'use_ideep_never')
CUDA_1_CUDNN = CPU.replace('use_cuda_false__cuda_device_None__use_cudnn_never',
                           'use_cuda_true__cuda_device_1__use_cudnn_always')
CHAINERX = CPU.replace('use_chainerx_false__chainerx_device_None',
                       'use_chainerx_true__chainerx_device_native:0')
IDEEP = CPU.replace('use_ideep_never', 'use_ideep_always')


def test_default_config_is_the_cpu():
    config = testing.BackendConfig({})
    assert config.device == backend.CpuDevice()
    assert config.xp is numpy
    assert (config.use_cuda, config.cuda_device, config.use_cudnn,
            config.use_ideep) == (False, None, 'never', 'never')
    assert config.get_func_str() == CPU
    assert config.get_pytest_marks() == []
    x = numpy.ones(3)
    assert config.get_array(x) is x
    assert repr(config).startswith(
        '<BackendConfig use_chainerx=False chainerx_device=None ')


def test_cuda_config_names_its_device_and_marks():
    config = testing.BackendConfig(
        {'use_cuda': True, 'use_cudnn': 'always', 'cuda_device': 1})
    assert config.get_func_str() == CUDA_1_CUDNN
    assert len(config.get_pytest_marks()) == 3  # gpu, cudnn, multi_gpu(2)
    assert testing.BackendConfig({'use_cuda': True}).cuda_device == 0


def test_entering_sets_the_configuration_and_restores_it():
    config = testing.BackendConfig(
        {'use_cudnn': 'always', 'autotune': True})
    before = configuration.config.use_cudnn, configuration.config.autotune
    with config:
        assert configuration.config.use_cudnn == 'always'
        assert configuration.config.autotune is True
        assert configuration.config.use_ideep == 'never'
    assert (configuration.config.use_cudnn,
            configuration.config.autotune) == before


@pytest.mark.parametrize('params, error, match', [
    ([], TypeError, 'params must be a dict'),
    ({'use_gpu': True}, ValueError, r"unknown parameter\(s\) \['use_gpu'\]"),
    ({'use_cudnn': True}, ValueError, "use_cudnn must be 'always'"),
    ({'use_chainerx': True}, ValueError, 'use_chainerx needs'),
    ({'use_cuda': True, 'cuda_device': -1}, ValueError, 'cuda_device must'),
])
def test_config_rejects_bad_parameters(params, error, match):
    with pytest.raises(error, match=match):
        testing.BackendConfig(params)


def test_use_ideep_true_is_an_ideep_config_as_chainers_tests_write_it():
    config = testing.BackendConfig({'use_ideep': True})
    assert config.get_func_str() == CPU.replace('use_ideep_never',
                                                'use_ideep_true')
    assert config.get_pytest_marks() == [testing.attr.ideep]
    with pytest.raises(ValueError, match="use_ideep must be 'always'"):
        testing.BackendConfig({'use_ideep': 'yes'})


@pytest.mark.parametrize('method_names, params, match', [
    ('test_a', [{}], 'method_names must be None or a list'),
    (None, {}, 'params must be a list of dicts'),
    (None, [1], 'params must be a list of dicts'),
])
def test_inject_rejects_bad_arguments(method_names, params, match):
    with pytest.raises(TypeError, match=match):
        testing.inject_backend_tests(method_names, params)


def test_inject_requires_a_config_argument():
    class TestX:
        def test_a(self):
            pass
    with pytest.raises(TypeError, match='test_a must take the backend'):
        testing.inject_backend_tests(None, [{}])(TestX)


BACKENDS = '''
    import unittest
    import numpy
    from kusari.autograd import testing

    PARAMS = [{}, {'use_cuda': True}, {'use_cuda': True, 'cuda_device': 1},
              {'use_chainerx': True, 'chainerx_device': 'native:0'},
              {'use_ideep': 'always'}]

    @testing.parameterize({'n': 1}, {'n': 2})
    @testing.fix_random()
    @testing.inject_backend_tests(None, PARAMS)
    class TestCase(unittest.TestCase):
        def test_a(self, backend_config):
            assert backend_config.xp is numpy and self.n == 1

    @testing.inject_backend_tests(['test_a'], PARAMS[:2])
    class TestPlain:
        def test_a(self, backend_config, tmp_path):
            assert backend_config.device.xp is numpy and tmp_path.is_dir()

        def test_b(self):
            pass
'''


def test_injected_tests_run_on_cpu_and_skip_elsewhere(run_pytest):
    # The limit makes GPU variants skip where GPUs are present too.
    outcomes = run_pytest(BACKENDS, env={'CHAINER_TEST_GPU_LIMIT': '0'})
    assert outcomes.of('passed') == [
        f'TestCase_{CPU}_param_0_{{n=1}}::test_a',
        'TestPlain::test_b',
        f'TestPlain_{CPU}::test_a',
    ]
    assert outcomes.of('failure') == [
        f'TestCase_{CPU}_param_1_{{n=2}}::test_a']
    gpu = CPU.replace('use_cuda_false__cuda_device_None',
                      'use_cuda_true__cuda_device_0')
    gpu1 = gpu.replace('cuda_device_0', 'cuda_device_1')
    skipped = sorted([f'TestCase_{c}_param_{i}_{{n={i + 1}}}::test_a'
                      for c in (gpu, gpu1, CHAINERX, IDEEP)
                      for i in (0, 1)] + [f'TestPlain_{gpu}::test_a'])
    assert outcomes.of('skipped') == skipped
    reasons = {test: message for test, (_, message) in outcomes.items()}
    assert 'ChainerX is not part of Kusari' in reasons[
        f'TestCase_{CHAINERX}_param_0_{{n=1}}::test_a']
    assert 'iDeep is not part of Kusari' in reasons[
        f'TestCase_{IDEEP}_param_0_{{n=1}}::test_a']
    assert '1 GPU(s) required, but CHAINER_TEST_GPU_LIMIT=0' in reasons[
        f'TestPlain_{gpu}::test_a']


def test_gpu_variants_are_deselected_by_their_mark(run_pytest):
    outcomes = run_pytest(BACKENDS, '-m', 'not gpu and not chainerx '
                          'and not ideep')
    assert sorted(outcomes) == [
        f'TestCase_{CPU}_param_0_{{n=1}}::test_a',
        f'TestCase_{CPU}_param_1_{{n=2}}::test_a',
        'TestPlain::test_b',
        f'TestPlain_{CPU}::test_a',
    ]
