"""Link hooks: callbacks around the forward of every link call.

A hook is registered globally for the current thread (``with hook:``) or
locally on one link (``link.add_hook(hook)``). While no hook exists anywhere
a link call costs one extra check, nothing more.
"""
import threading

from kusari.autograd.function_hook import thread_hooks

_local = threading.local()
_lock = threading.Lock()
# Global hooks registered over all threads; while there is none,
# ``Link._hooked`` is False and a call skips the thread-local lookup.
_n_global_hooks = 0


class Hooked:
    """A base of :class:`~kusari.links.Link`: ``_hooked`` says whether a
    call goes through the hooks. It is set here, on this class, while a
    global hook exists in some thread, and on a link instance while it
    has local hooks, so that a call without hooks checks one attribute."""

    _hooked = False


def get_link_hooks():
    """The dict ``name -> hook`` of this thread's global link hooks."""
    return thread_hooks(_local)


def any_global_hook():
    """Whether some thread has a global link hook registered."""
    return _n_global_hooks > 0


def _count_global(delta):
    global _n_global_hooks
    with _lock:
        _n_global_hooks += delta
        Hooked._hooked = _n_global_hooks > 0


class ForwardPreprocessCallbackArgs:
    """What :meth:`LinkHook.forward_preprocess` receives.

    Attributes:
        link: the link being called.
        forward_name (str): the name of the method called (``'forward'``).
        args (tuple): its positional arguments.
        kwargs (dict): its keyword arguments.
    """

    __slots__ = ('link', 'forward_name', 'args', 'kwargs')

    def __init__(self, link, forward_name, args, kwargs):
        self.link = link
        self.forward_name = forward_name
        self.args = args
        self.kwargs = kwargs


class ForwardPostprocessCallbackArgs(ForwardPreprocessCallbackArgs):
    """What :meth:`LinkHook.forward_postprocess` receives: the same as
    before the call, and ``out``, what the forward returned."""

    __slots__ = ('out',)

    def __init__(self, link, forward_name, args, kwargs, out):
        super().__init__(link, forward_name, args, kwargs)
        self.out = out


class LinkHook:
    """Base of link hooks; override the callbacks you need.

    ``with hook:`` registers it for every link called in this thread;
    ``link.add_hook(hook)`` for one link only. Hooks are identified by
    :attr:`name`, unique where they are registered.
    """

    name = 'LinkHook'

    def __enter__(self):
        hooks = get_link_hooks()
        if self.name in hooks:
            raise KeyError(f'a link hook named {self.name!r} is already '
                           f'registered in this thread')
        # added() may refuse (a hook meant for one link only); nothing is
        # registered then.
        self.added(None)
        hooks[self.name] = self
        _count_global(1)
        return self

    def __exit__(self, *exc):
        del get_link_hooks()[self.name]
        _count_global(-1)
        self.deleted(None)

    def added(self, link):
        """Called when registered; ``link`` is None for global use."""

    def deleted(self, link):
        """Called when unregistered; ``link`` is None for global use."""

    def forward_preprocess(self, args):
        """Before the link's forward; ``args`` is a
        :class:`ForwardPreprocessCallbackArgs`."""

    def forward_postprocess(self, args):
        """After the link's forward; ``args`` is a
        :class:`ForwardPostprocessCallbackArgs`."""


def call_with_hooks(link, forward, args, kwargs):
    """Call ``forward(*args, **kwargs)`` of ``link`` between the pre- and
    postprocess callbacks of this thread's global hooks, then the link's
    local ones."""
    hooks = get_link_hooks()
    local = link._local_link_hooks
    if local:
        hooks = {**hooks, **local}
    hooks = tuple(hooks.values())
    before = ForwardPreprocessCallbackArgs(link, 'forward', args, kwargs)
    for hook in hooks:
        hook.forward_preprocess(before)
    out = forward(*args, **kwargs)
    after = ForwardPostprocessCallbackArgs(link, 'forward', args, kwargs, out)
    for hook in hooks:
        hook.forward_postprocess(after)
    return out
