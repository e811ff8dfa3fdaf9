"""Link hooks: global and local registration, callback arguments,
TimerHook."""
import io
import threading

import numpy
import pytest

from kusari.links import LinkHook, link_hook
from kusari.links.link_hooks import TimerHook
from links_fakes import MLP, Linear


class Recorder(LinkHook):
    name = 'Recorder'

    def __init__(self):
        self.events = []

    def added(self, link):
        self.events.append(('added', link))

    def deleted(self, link):
        self.events.append(('deleted', link))

    def forward_preprocess(self, args):
        self.events.append(('pre', args.link, args.forward_name, args.args,
                            args.kwargs))

    def forward_postprocess(self, args):
        self.events.append(('post', args.link, args.out))


def test_local_hook_sees_the_call():
    link = Linear(2, 2)
    hook = Recorder()
    assert link.add_hook(hook) is link
    x = numpy.ones((1, 2), numpy.float32)
    y = link(x)
    added, pre, post = hook.events
    assert added == ('added', link)
    assert pre[:3] == ('pre', link, 'forward') and pre[3] == (x,)
    assert pre[4] == {}
    assert post[0] == 'post' and post[1] is link and post[2] is y
    link.delete_hook('Recorder')
    assert hook.events[-1] == ('deleted', link)
    link(x)
    assert len(hook.events) == 4
    assert link.local_link_hooks == {}


def test_global_hook_sees_nested_links_in_this_thread_only():
    model = MLP()
    x = numpy.ones((1, 3), numpy.float32)
    seen_elsewhere = []
    with Recorder() as hook:
        model(x)
        thread = threading.Thread(
            target=lambda: seen_elsewhere.append(Linear(3, 2)(x)))
        thread.start()
        thread.join()
    calls = [event[1] for event in hook.events if event[0] == 'pre']
    assert calls == [model, model.l1, model.l2]
    assert hook.events[0] == ('added', None)
    assert hook.events[-1] == ('deleted', None)
    assert len(seen_elsewhere) == 1
    assert not link_hook.any_global_hook()


def test_hook_names_are_unique():
    link = Linear(2, 2)
    link.add_hook(Recorder())
    with pytest.raises(KeyError, match="'Recorder' is already"):
        link.add_hook(Recorder())
    link.add_hook(Recorder(), name='second')
    assert list(link.local_link_hooks) == ['Recorder', 'second']
    with pytest.raises(KeyError, match="no hook named 'nope'"):
        link.delete_hook('nope')
    with pytest.raises(TypeError, match='expected a LinkHook'):
        link.add_hook(object())
    with Recorder():
        with pytest.raises(KeyError, match='already registered'):
            with Recorder():
                pass
    assert not link_hook.any_global_hook()


def test_timer_hook():
    model = MLP()
    x = numpy.ones((1, 3), numpy.float32)
    with TimerHook() as hook:
        model(x)
        model(x)
    assert [name for name, _ in hook.call_history] == [
        'Linear', 'Linear', 'MLP'] * 2
    assert all(t >= 0 for _, t in hook.call_history)
    summary = hook.summary()
    assert list(summary) == ['Linear', 'MLP']
    assert summary['Linear']['occurrence'] == 4
    outer = sum(t for name, t in hook.call_history if name == 'MLP')
    assert hook.total_time() == pytest.approx(outer)
    out = io.StringIO()
    hook.print_report(unit='ms', file=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ['LinkName', 'ElapsedTime', 'Occurrence']
    assert lines[1].split()[0] == 'Linear' and lines[1].endswith('4')
    assert lines[1].split()[1].endswith('ms')
    with pytest.raises(ValueError, match="unit must be"):
        hook.print_report(unit='hours')


def test_timer_hook_local():
    link = Linear(2, 2)
    hook = TimerHook()
    link.add_hook(hook)
    link(numpy.ones((1, 2), numpy.float32))
    assert [name for name, _ in hook.call_history] == ['Linear']
