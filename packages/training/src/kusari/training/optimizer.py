"""Optimizers: the machinery that updates a link's parameters.

An :class:`Optimizer` is set up on a link; a :class:`GradientMethod` gives
each parameter an :class:`UpdateRule`, which holds that parameter's state
(moving averages, ...) and its :class:`Hyperparameter`, whose missing
entries come from the optimizer's. Hooks run before or after the updates,
once per update (given the optimizer) or once per parameter (given the rule
and the parameter).
"""
import math
import warnings

import numpy

from kusari.array import backend
from kusari.autograd.graph_optimizations.static_graph import \
    replayed_parameters
from kusari.links.link import Link
from kusari.training import optimizer_hooks
from kusari.training.update_rule import Hyperparameter  # NOQA
from kusari.training.update_rule import HyperparameterProxy  # NOQA
from kusari.training.update_rule import UpdateRule  # NOQA
from kusari.training.update_rule import _Hooks
from kusari.training.update_rule import _optional
from kusari.training.update_rule import set_hyperparams  # NOQA


def _deprecated_hook(hook_class):
    """``hook_class`` under its old home, ``chainer.optimizer``, where
    Chainer 7 kept it importable with a DeprecationWarning."""
    name = hook_class.__name__

    def __init__(self, *args, **kwargs):
        warnings.warn(
            f'chainer.optimizer.{name} is deprecated; use '
            f'chainer.optimizer_hooks.{name} instead', DeprecationWarning,
            stacklevel=2)
        hook_class.__init__(self, *args, **kwargs)

    return type(name, (hook_class,), {
        '__init__': __init__, '__module__': __name__,
        '__doc__': f'Deprecated: :class:`~kusari.training.optimizer_hooks.'
                   f'{name}`.'})


GradientClipping = _deprecated_hook(optimizer_hooks.GradientClipping)
GradientHardClipping = _deprecated_hook(optimizer_hooks.GradientHardClipping)
GradientNoise = _deprecated_hook(optimizer_hooks.GradientNoise)
Lasso = _deprecated_hook(optimizer_hooks.Lasso)
WeightDecay = _deprecated_hook(optimizer_hooks.WeightDecay)


class Optimizer:
    """Base of all optimizers: updates the parameters of a target link.

    Call :meth:`setup` with the link first. Hooks added with
    :meth:`add_hook` run before (``'pre'``) or after (``'post'``) each
    update: ``hook(optimizer)``, or ``hook(rule, param)`` for each parameter
    if ``hook.call_for_each_param`` is true.

    Attributes:
        target (Link): the link being optimized.
        t (int): the number of updates made.
        epoch (int): the current epoch (see :meth:`new_epoch`).
        use_auto_new_epoch (bool): True when an updater calls
            :meth:`new_epoch` (it then refuses calls from elsewhere).
    """

    target = None
    t = 0
    epoch = 0
    use_auto_new_epoch = False
    _hooks = None
    _loss_scale = None
    _loss_scale_max = 65504
    _loss_scaling_is_dynamic = False
    _loss_scaling_multiplier = None
    _loss_scaling_isnan = False
    _loss_scaling_isnan_ever = False

    def setup(self, link):
        """Make ``link`` the target (resetting :attr:`t`, :attr:`epoch` and
        the hooks); returns self."""
        if not isinstance(link, Link):
            raise TypeError(
                f'{type(self).__name__}.setup: the optimization target must '
                f'be a link (a Link), got {type(link).__name__}')
        self.target = link
        self.t = 0
        self.epoch = 0
        self._hooks = _Hooks()
        return self

    def _check_set_up(self, caller):
        if self._hooks is None:
            raise RuntimeError(
                f'{type(self).__name__}.{caller}: the optimizer is not set '
                f'up; call setup(link) first')

    def update(self, lossfun=None, *args, **kwds):
        """Update the parameters.

        With ``lossfun``, ``lossfun(*args, **kwds)`` is called for the loss
        and its gradients are computed first; without it, the gradients of
        the parameters must already be computed.
        """
        raise NotImplementedError(
            f'{type(self).__name__} does not define update')

    def new_epoch(self, auto=False):
        """Count the start of a new epoch.

        Args:
            auto (bool): True when called by an updater, which must have
                set :attr:`use_auto_new_epoch`; a call from elsewhere then
                raises, since it would count the epoch twice.
        """
        if self.use_auto_new_epoch and not auto:
            raise RuntimeError(
                f'{type(self).__name__}.new_epoch: the updater already '
                f'calls new_epoch; pass auto_new_epoch=False to the updater '
                f'or stop calling new_epoch yourself')
        if auto and not self.use_auto_new_epoch:
            raise RuntimeError(
                f'{type(self).__name__}.new_epoch: called with auto=True '
                f'but use_auto_new_epoch is False; the updater must set '
                f'optimizer.use_auto_new_epoch = True')
        self.epoch += 1

    def add_hook(self, hook, name=None, timing='auto'):
        """Register a hook.

        Args:
            hook (callable): ``hook(optimizer)``, or ``hook(rule, param)``
                for each parameter if ``hook.call_for_each_param`` is true.
            name (str): its name; ``hook.name`` (or ``__name__``) if None.
            timing (str): ``'pre'`` (before the updates), ``'post'``
                (after), or ``'auto'``: the hook's ``timing`` attribute,
                ``'pre'`` where it has none.
        """
        self._check_set_up('add_hook')
        self._hooks.add(type(self).__name__, hook, name, timing)

    def remove_hook(self, name):
        """Unregister the hook ``name``."""
        self._check_set_up('remove_hook')
        self._hooks.remove(type(self).__name__, name)

    def call_hooks(self, timing='pre'):
        """Call the hooks of ``timing`` in the order of registration; after
        each, the gradients it cleared are reallocated as zeros (see
        :meth:`reallocate_cleared_grads`), as in Chainer."""
        if timing not in ('pre', 'post'):
            raise ValueError(f"{type(self).__name__}.call_hooks: timing "
                             f"must be 'pre' or 'post', got {timing!r}")
        hooks = self._hooks.pre if timing == 'pre' else self._hooks.post
        for hook in list(hooks.values()):
            self.call_hook(hook)
            self.reallocate_cleared_grads()

    def reallocate_cleared_grads(self):
        """Give every initialized parameter without a gradient a zero one,
        so that every parameter is updated (with zeros, momentum still
        moves it). Called before and after each hook; an optimizer that
        needs no such gradients may override it with one that does
        nothing."""
        for param in self.target.params(include_uninit=False):
            if param.grad is None:
                array = param.array
                with backend.get_device_from_array(array):
                    param.grad = backend.get_array_module(
                        array).zeros_like(array)

    def call_hook(self, hook):
        """Call one hook: once, or once per parameter."""
        if getattr(hook, 'call_for_each_param', False):
            for param in self.target.params():
                hook(param.update_rule, param)
        else:
            hook(self)

    def serialize(self, serializer):
        """Save or load :attr:`t`, :attr:`epoch`, the dynamic loss scale,
        and the state of every update rule under its parameter's path.

        The parameters themselves are not saved: save the link too.
        """
        self._check_set_up('serialize')
        self.t = serializer('t', self.t)
        self.epoch = serializer('epoch', self.epoch)
        if self._loss_scaling_is_dynamic:
            self._loss_scale = _optional(
                serializer, 'loss_scale', self._loss_scale)
            self._loss_scaling_isnan_ever = _optional(
                serializer, 'loss_scaling_isnan_ever',
                self._loss_scaling_isnan_ever)
        for path, param in self.target.namedparams():
            rule = param.update_rule
            if rule is not None:
                rule.serialize(serializer[path])

    # -- loss scaling --------------------------------------------------

    def loss_scaling(self, interval=1000, scale=None):
        """Configure loss scaling, for training with float16 gradients.

        The loss is multiplied by the scale before backprop, and the
        gradients divided by it before the update.

        Args:
            interval (int): with dynamic scaling, the number of updates
                over which the scale doubles.
            scale (float): a fixed scale; None for dynamic scaling, which
                starts at 1, doubles after each update until a gradient
                overflows, then halves on each overflow (skipping that
                update) and otherwise grows by ``2 ** (1 / interval)``.
        """
        if scale is None:
            if isinstance(interval, bool) or not isinstance(
                    interval, (int, numpy.integer)) or interval < 1:
                raise ValueError(
                    f'{type(self).__name__}.loss_scaling: interval must be '
                    f'an int >= 1, got {interval!r}')
            self._loss_scaling_is_dynamic = True
            self._loss_scale = 1.0
            self._loss_scaling_multiplier = math.pow(2.0, 1.0 / interval)
            self._loss_scaling_isnan_ever = False
        else:
            self.set_loss_scale(scale)

    def set_loss_scale(self, loss_scale):
        """Use the fixed loss scale ``loss_scale`` (None for none)."""
        if loss_scale is not None and not loss_scale > 0:
            raise ValueError(
                f'{type(self).__name__}.set_loss_scale: the loss scale must '
                f'be a positive number, got {loss_scale!r}')
        self._loss_scale = loss_scale
        self._loss_scaling_is_dynamic = False

    def check_nan_in_grads(self):
        """With dynamic loss scaling, note whether a gradient holds a NaN or
        an infinity (the update is then skipped, with a warning)."""
        self._loss_scaling_isnan = False
        if not self._loss_scaling_is_dynamic:
            return
        for path, param in self.target.namedparams(include_uninit=False):
            grad = param.grad
            if grad is not None and not _all_finite(grad):
                self._loss_scaling_isnan = True
                self._loss_scaling_isnan_ever = True
                warnings.warn(
                    f'{type(self).__name__}.update: non-finite gradient in '
                    f'{path}; this update is skipped (iteration {self.t}, '
                    f'loss scale {self._loss_scale})', RuntimeWarning,
                    stacklevel=3)
                return

    def is_safe_to_update(self):
        """False when the last check found a non-finite gradient."""
        return not self._loss_scaling_isnan

    def update_loss_scale(self):
        """Grow or shrink the dynamic loss scale after an update."""
        if not self._loss_scaling_is_dynamic:
            return
        if self._loss_scaling_isnan:
            multiplier = 0.5
        elif self._loss_scaling_isnan_ever:
            multiplier = self._loss_scaling_multiplier
        else:
            multiplier = 2.0
        self._loss_scale = max(1.0, min(self._loss_scale_max,
                                        self._loss_scale * multiplier))


def _without_hooks(rule):
    """Whether ``rule`` is an update rule with no hook of its own (a hook
    may read or change the gradient around the update)."""
    return rule is not None and not rule._hooks.pre and not rule._hooks.post


def _all_finite(grad):
    if grad.dtype == numpy.float64:
        return bool(backend.get_array_module(grad).isfinite(grad).all())
    # A float64 sum of narrower floats cannot overflow, and carries any NaN
    # or infinity: no boolean array is made.
    with numpy.errstate(invalid='ignore'):
        return math.isfinite(float(grad.sum(dtype=numpy.float64)))


class GradientMethod(Optimizer):
    """Base of the optimizers that update each parameter from its gradient
    alone, through an :class:`UpdateRule` per parameter.

    A subclass defines :meth:`create_update_rule`; its hyperparameters live
    in :attr:`hyperparam`, the parent of every rule's, and are usually
    exposed as properties with :class:`HyperparameterProxy`.

    Attributes:
        hyperparam (Hyperparameter): the defaults of every update rule.
    """

    _use_cleargrads = True

    def __init__(self):
        self.hyperparam = Hyperparameter()
        self._use_fp32_update = False

    def setup(self, link):
        """Set up on ``link``, giving each parameter a new update rule."""
        super().setup(link)
        for param in link.params():
            param.update_rule = self.create_update_rule()
            if self._use_fp32_update:
                param.update_rule.use_fp32_update()
        return self

    def create_update_rule(self):
        """A new :class:`UpdateRule` for one parameter."""
        raise NotImplementedError(
            f'{type(self).__name__} does not define create_update_rule')

    def use_cleargrads(self, use=True):
        """Deprecated: :meth:`update` with a loss function clears the
        gradients with ``cleargrads`` (``zerograds`` if ``use`` is False).
        """
        warnings.warn(
            'GradientMethod.use_cleargrads is deprecated: update() calls '
            'cleargrads() already', DeprecationWarning, stacklevel=2)
        self._use_cleargrads = use

    def use_fp32_update(self, flag=True):
        """Update float16 parameters through float32 copies (see
        :meth:`UpdateRule.use_fp32_update`), for every rule."""
        self._use_fp32_update = flag
        if self.target is not None:
            for param in self.target.params():
                if param.update_rule is not None:
                    param.update_rule.use_fp32_update(flag)

    def update(self, lossfun=None, *args, **kwds):
        """Update every parameter with its update rule.

        With ``lossfun``, the loss ``lossfun(*args, **kwds)`` is computed,
        the gradients cleared and backpropagated (multiplied by the loss
        scale, if any) first. Without it, the gradients must be computed
        already, by ``loss.backward(loss_scale=...)`` where a loss scale
        is set: as in Chainer, each gradient is divided by the scale of
        the backward pass that made it (not at all if it had none). Then: the
        gradients left None become zeros, the ``'pre'`` hooks run, each
        parameter is updated (unless dynamic loss scaling found a
        non-finite gradient), and the ``'post'`` hooks run.

        With ``lossfun``, the parameters that replays of static chains
        read in this forward pass (see
        :func:`~kusari.autograd.graph_optimizations.static_graph.replayed_parameters`)
        are updated inside their backward, each as soon as its gradient
        is final, where nothing needs every gradient first or changes
        one: no ``'pre'`` hook of the optimizer, no hook of the
        parameter's rule, no loss scaling. The result is the same as
        updating after backward.
        """
        self._check_set_up('update')
        updated = None
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            if self._use_cleargrads:
                self.target.cleargrads()
            else:
                self.target.zerograds()
            updated = self._backward(loss)
            del loss
        self.reallocate_cleared_grads()
        self.check_nan_in_grads()
        self.call_hooks('pre')
        if updated is None:
            self.t += 1
        if not self._loss_scaling_isnan:
            for param in self.target.params():
                if param.update_rule is not None and (
                        updated is None or id(param) not in updated):
                    param.update()
        self.reallocate_cleared_grads()
        self.call_hooks('post')
        self.update_loss_scale()

    def _backward(self, loss):
        """``loss.backward()``, updating the parameters that static
        replays own as their gradients become final (see :meth:`update`);
        the ids of those updated, or None where none could be (the
        optimizer's count :attr:`t` is then still to be advanced)."""
        if self._hooks.pre or self._loss_scale is not None or \
                self._loss_scaling_is_dynamic:
            owned = ()
        else:
            owned = [param for param in replayed_parameters(self.target)
                     if _without_hooks(param.update_rule)]
        if not owned:
            loss.backward(loss_scale=self._loss_scale)
            return None
        self.t += 1
        updated = set()

        def update_now(param):
            param.update()
            updated.add(id(param))

        handles = [param.register_post_accumulate_grad_hook(update_now)
                   for param in owned]
        try:
            loss.backward()
        finally:
            for handle in handles:
                handle.remove()
        return updated
