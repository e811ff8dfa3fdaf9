import io
import types

import numpy
import pytest

from kusari.array import lazy_cupy
from kusari.autograd import FunctionNode
from kusari.autograd import Variable
from kusari.autograd import function
from kusari.autograd import function_hooks
from kusari.autograd import functions as F
from kusari.autograd.function_hooks import timer


class Clock:
    """A perf_counter that moves only when told to."""

    def __init__(self):
        self.now = 0.

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = Clock()
    monkeypatch.setattr(timer.time, 'perf_counter', fake)
    return fake


class Takes(FunctionNode):
    """y = x; forward and backward take ``seconds`` on the fake clock and
    apply ``inner`` (a Takes) on the way, if given."""

    def __init__(self, clock, seconds, inner=None, backward_seconds=0):
        self.clock = clock
        self.seconds = seconds
        self.inner = inner
        self.backward_seconds = backward_seconds

    def forward(self, inputs):
        self.clock.now += self.seconds
        if self.inner is not None:
            self.inner.apply(inputs)
        return inputs[0].copy(),

    def backward(self, indexes, grad_outputs):
        self.clock.now += self.backward_seconds
        return grad_outputs


class Inner(Takes):
    pass


def float_variable(*shape):
    return Variable(numpy.arange(numpy.prod(shape), dtype=numpy.float32)
                    .reshape(shape))


# -- TimerHook ----------------------------------------------------------


def test_timer_records_forward_and_backward_by_class_name(clock):
    x = float_variable(3)
    with function_hooks.TimerHook() as hook:
        y, = Takes(clock, 2., backward_seconds=5.).apply((x,))
        y.grad = numpy.ones(3, dtype=numpy.float32)
        y.backward()
    assert hook.call_history == [('Takes', 2.), ('Takes', 5.)]
    assert hook.total_time() == 7.
    assert hook.summary() == {'Takes': {'elapsed_time': 7.,
                                        'occurrence': 2}}


def test_timer_excludes_nested_applications(clock):
    x = float_variable(3)
    with function_hooks.TimerHook() as hook:
        Takes(clock, 1., inner=Inner(clock, 4.)).apply((x,))
    # The inner application finishes first.
    assert hook.call_history == [('Inner', 4.), ('Takes', 1.)]
    assert hook.total_time() == 5.


def test_timer_recovers_from_a_raising_application(clock):
    class Raises(FunctionNode):
        def forward(self, inputs):
            clock.now += 100.
            raise ZeroDivisionError

    class Outer(FunctionNode):
        def forward(self, inputs):
            clock.now += 1.
            with pytest.raises(ZeroDivisionError):
                Raises().apply(inputs)
            return inputs[0].copy(),

    with function_hooks.TimerHook() as hook:
        Outer().apply((float_variable(2),))
    assert hook.call_history == [('Outer', 101.)]


def test_timer_as_local_hook_times_only_its_node(clock):
    hook = function_hooks.TimerHook()
    node = Takes(clock, 3.)
    node.add_hook(hook)
    y, = node.apply((float_variable(2),))
    Takes(clock, 10.).apply((y,))
    assert hook.call_history == [('Takes', 3.)]


def test_timer_groups_old_style_functions_by_their_class():
    class Double(function.Function):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, inputs, grad_outputs):
            return grad_outputs[0] * 2,

    x = float_variable(2)
    with function_hooks.TimerHook() as hook:
        F.sum(Double()(x)).backward()
    names = [name for name, _ in hook.call_history]
    assert names.count('Double') == 2
    assert all(seconds >= 0 for _, seconds in hook.call_history)


def report(hook, unit='auto'):
    out = io.StringIO()
    hook.print_report(unit=unit, file=out)
    return out.getvalue().splitlines()


def timed_hook(clock):
    with function_hooks.TimerHook() as hook:
        Takes(clock, 1.5).apply((float_variable(2),))
        Inner(clock, 2e-5).apply((float_variable(2),))
        Inner(clock, 2e-5).apply((float_variable(2),))
    return hook


def test_timer_report_units(clock):
    hook = timed_hook(clock)
    assert report(hook) == ['FunctionName  ElapsedTime  Occurrence',
                            '       Takes      1.50sec           1',
                            '       Inner      0.00sec           2']
    assert report(hook, 'auto_foreach')[1:] == [
        '       Takes      1.50sec           1',
        '       Inner      40.00us           2']
    assert report(hook, 'ms')[2].split() == ['Inner', '0.04ms', '2']
    assert report(hook, 'ns')[0] == \
        'FunctionName      ElapsedTime  Occurrence'
    with pytest.raises(ValueError, match='auto_foreach'):
        hook.print_report(unit='hours')


def test_timer_report_of_nothing_is_the_header():
    assert report(function_hooks.TimerHook()) == [
        'FunctionName  ElapsedTime  Occurrence']


def test_timer_report_prints_to_stdout_by_default(clock, capsys):
    timed_hook(clock).print_report()
    assert 'Takes' in capsys.readouterr().out


def test_global_hooks_of_one_name_do_not_nest():
    with function_hooks.TimerHook():
        with pytest.raises(KeyError, match='TimerHook'):
            with function_hooks.TimerHook():
                pass


@pytest.mark.gpu
def test_timer_on_gpu_uses_cuda_events():
    cupy = lazy_cupy.require_cupy()
    x = Variable(cupy.arange(1000, dtype=cupy.float32))
    with function_hooks.TimerHook() as hook:
        F.sum(F.exp(x)).backward()
    assert [name for name, _ in hook.call_history][:2] == ['Exp', 'Sum']
    assert all(seconds >= 0 for _, seconds in hook.call_history)


# -- PrintHook ----------------------------------------------------------


def test_print_hook_describes_inputs_and_output_gradients():
    out = io.StringIO()
    x = float_variable(2, 3)
    with function_hooks.PrintHook(file=out):
        y = F.exp(x)
    text = out.getvalue()
    assert text.startswith('function\texp\ninput data\n')
    # Described as Chainer does, an unnamed variable by its address.
    described = Variable(x.array).debug_print().split('\n', 1)
    assert described[0].startswith('<variable at 0x')
    assert '\n<variable at 0x' in text and described[1] in text
    out.truncate(0)
    out.seek(0)
    with function_hooks.PrintHook(file=out):
        y.grad = numpy.full((2, 3), 2, dtype=numpy.float32)
        y.backward()
    lines = out.getvalue().splitlines()
    assert lines[:3] == ['function\texp', 'input data', '(removed)']
    assert lines[3] == 'output gradient'
    # The gradient is described as the grad of a variable.
    assert lines[10] == '- grad: mean=2.00000000, std=0.00000000'


def test_print_hook_end_local_use_and_missing_gradients():
    class Split(FunctionNode):
        def forward(self, inputs):
            self.retain_inputs((0,))
            x, = inputs
            return x[:1].copy(), x[1:].copy()

        def backward(self, indexes, grad_outputs):
            x, = self.get_retained_inputs()
            return F.get_item(F.exp(x), slice(None)) * 0,

    out = io.StringIO()
    hook = function_hooks.PrintHook(end='|\n', file=out)
    node = Split()
    node.add_hook(hook)
    a, b = node.apply((float_variable(2),))
    F.sum(a * 2).backward()
    lines = out.getvalue().splitlines()
    assert lines[0] == 'function\tSplit|'
    assert lines.count('function\tSplit|') == 2
    assert not any('exp' in line for line in lines)
    assert lines[-1] == 'None|'


def test_print_hook_prints_to_stdout_by_default(capsys):
    with function_hooks.PrintHook():
        F.exp(float_variable(1))
    assert capsys.readouterr().out.startswith('function\texp\n')


def test_print_hook_sep_is_deprecated():
    with pytest.warns(DeprecationWarning, match='sep'):
        function_hooks.PrintHook(sep=' ')


# -- CuPy hooks ---------------------------------------------------------


class FakePool:
    def __init__(self):
        self.used = 0
        self.total = 0

    def used_bytes(self):
        return self.used

    def total_bytes(self):
        return self.total


@pytest.fixture
def fake_cupy(monkeypatch):
    """A stand-in for cupy's memory pool and NVTX, to check the hooks'
    accounting where no GPU is present."""
    pool = FakePool()
    calls = []
    nvtx = types.SimpleNamespace(RangePush=calls.append,
                                 RangePop=lambda: calls.append('pop'))
    fake = types.SimpleNamespace(get_default_memory_pool=lambda: pool,
                                 cuda=types.SimpleNamespace(nvtx=nvtx))
    monkeypatch.setattr(lazy_cupy, 'require_cupy', lambda: fake)
    return types.SimpleNamespace(pool=pool, nvtx_calls=calls)


class Allocates(FunctionNode):
    def __init__(self, pool, used, acquired, inner=None):
        self.pool = pool
        self.used = used
        self.acquired = acquired
        self.inner = inner

    def forward(self, inputs):
        self.pool.used += self.used
        self.pool.total += self.acquired
        if self.inner is not None:
            self.inner.apply(inputs)
        return inputs[0].copy(),


class InnerAllocates(Allocates):
    pass


def test_memory_hook_records_nested_use_once(fake_cupy):
    pool = fake_cupy.pool
    with function_hooks.CupyMemoryProfileHook() as hook:
        Allocates(pool, 1024, 2048,
                  inner=InnerAllocates(pool, 512, 0)).apply(
            (float_variable(2),))
        Allocates(pool, 3 * 1024 ** 2, 0).apply((float_variable(2),))
    assert hook.call_history == [('InnerAllocates', 512, 0),
                                 ('Allocates', 1024, 2048),
                                 ('Allocates', 3 * 1024 ** 2, 0)]
    assert hook.total_used_bytes() == 512 + 1024 + 3 * 1024 ** 2
    assert hook.total_acquired_bytes() == 2048
    assert hook.summary()['Allocates'] == {
        'used_bytes': 1024 + 3 * 1024 ** 2, 'acquired_bytes': 2048,
        'occurrence': 2}
    assert report(hook) == [
        '  FunctionName  UsedBytes  AcquiredBytes  Occurrence',
        'InnerAllocates     0.00MB         0.00MB           1',
        '     Allocates     3.00MB         0.00MB           2']
    assert report(hook, 'auto_foreach')[1].split() == [
        'InnerAllocates', '512.00B', '0.00B', '1']


def test_cuda_profile_hook_marks_ranges(fake_cupy):
    x = float_variable(2)
    with function_hooks.CUDAProfileHook():
        F.sum(F.exp(x)).backward()
    calls = fake_cupy.nvtx_calls
    assert calls[:4] == ['exp.forward', 'pop', 'Sum.forward', 'pop']
    assert 'exp.backward' in calls
    assert calls.count('pop') * 2 == len(calls)


@pytest.mark.parametrize('hook_class', [
    function_hooks.CupyMemoryProfileHook, function_hooks.CUDAProfileHook])
def test_cupy_hooks_need_cupy(hook_class):
    if lazy_cupy.cupy_or_none() is not None:
        pytest.skip('CuPy and a GPU are present')
    with pytest.raises(RuntimeError, match='requires CuPy'):
        hook_class()


@pytest.mark.gpu
def test_memory_hook_on_gpu():
    cupy = lazy_cupy.require_cupy()
    x = Variable(cupy.ones((256, 256), dtype=cupy.float32))
    with function_hooks.CupyMemoryProfileHook() as hook:
        F.exp(x)
    name, used, acquired = hook.call_history[0]
    assert name == 'Exp' and used >= 256 * 256 * 4
