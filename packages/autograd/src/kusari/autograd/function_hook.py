"""Function hooks: callbacks around every function's forward and backward.

A hook is registered globally for the current thread (``with hook:``) or
locally on one FunctionNode (``node.add_hook(hook)``).
"""
from kusari.autograd import _state


def thread_hooks(local):
    """The dict ``name -> hook`` that ``local`` (a ``threading.local``)
    holds for this thread, made on first use."""
    try:
        return local.hooks
    except AttributeError:
        hooks = local.hooks = {}
        return hooks


def get_function_hooks():
    """The dict ``name -> hook`` of this thread's global function hooks."""
    return thread_hooks(_state.function_hooks)


class FunctionHook:
    """Base of function hooks; override the callbacks you need.

    Every callback receives the FunctionNode; the ``*_preprocess`` ones run
    just before its computation, the ``*_postprocess`` ones just after.
    """

    name = 'FunctionHook'

    def __enter__(self):
        hooks = get_function_hooks()
        if self.name in hooks:
            raise KeyError(f'a function hook named {self.name!r} is already '
                           f'registered in this thread')
        self.added(None)  # if it refuses, nothing is registered
        hooks[self.name] = self
        return self

    def __exit__(self, *exc):
        get_function_hooks().pop(self.name)
        self.deleted(None)

    def added(self, function):
        """Called when registered; ``function`` is None for global use."""

    def deleted(self, function):
        """Called when unregistered; ``function`` is None for global use."""

    def forward_preprocess(self, function, in_data):
        """Before ``function.forward(in_data)``."""

    def forward_postprocess(self, function, in_data):
        """After ``function.forward(in_data)``."""

    def backward_preprocess(self, function, in_data, out_grad):
        """Before ``function``'s backward; arrays, not Variables."""

    def backward_postprocess(self, function, in_data, out_grad):
        """After ``function``'s backward; arrays, not Variables."""
