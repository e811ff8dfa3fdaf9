"""Adam and its variants: AdamW, AMSGrad, AdaBound, AMSBound."""
import math
import warnings

from kusari.training import optimizer, update_rule
from kusari.training.optimizers import _elementwise, _formula

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.alpha = 0.001
_default_hyperparam.beta1 = 0.9
_default_hyperparam.beta2 = 0.999
_default_hyperparam.eps = 1e-8
_default_hyperparam.eta = 1.0
_default_hyperparam.weight_decay_rate = 0
_default_hyperparam.amsgrad = False
_default_hyperparam.adabound = False
_default_hyperparam.final_lr = 0.1
_default_hyperparam.gamma = 1e-3


class _BiasCorrectedRate:
    """The learning rate of Adam's step, on the rule (for its own step
    count) and on the optimizer (for its step count); both have
    ``hyperparam`` and ``t``."""

    @property
    def alpha_t(self):
        """``alpha`` with the bias correction of the step :attr:`t`."""
        t = self.t
        if t == 0:
            raise RuntimeError(
                f"{type(self).__name__}.alpha_t: Adam's learning rate is "
                f"undefined before the first update (t == 0)")
        hp = self.hyperparam
        fix1 = 1.0 - math.pow(hp.beta1, t)
        fix2 = 1.0 - math.pow(hp.beta2, t)
        return hp.alpha * math.sqrt(fix2) / fix1

    @property
    def lr(self):
        """Deprecated alias of :attr:`alpha_t`."""
        owner = type(self).__name__
        warnings.warn(f'{owner}.lr has been renamed to {owner}.alpha_t; lr '
                      f'is deprecated', DeprecationWarning, stacklevel=2)
        return self.alpha_t


class AdamRule(_BiasCorrectedRate, _elementwise.Rule):
    """Update rule of :class:`Adam`::

        m += (1 - beta1) * (grad - m)
        v += (1 - beta2) * (grad ** 2 - v)
        vhat = maximum(vhat, v) if amsgrad else v
        step = alpha_t / (sqrt(vhat) + eps)
        step = clip(step, lower(t), upper(t)) if adabound
        param -= eta * (step * m + weight_decay_rate * param)

    where ``alpha_t = alpha * sqrt(1 - beta2 ** t) / (1 - beta1 ** t)``,
    and AdaBound's bounds close in on ``final_lr`` (scaled as ``alpha`` is
    scaled from its first value):
    ``lower(t) = final_lr * (1 - 1 / (gamma * t + 1))``,
    ``upper(t) = final_lr * (1 + 1 / (gamma * t))``.

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        alpha, beta1, beta2, eps, eta, weight_decay_rate, amsgrad,
        adabound, final_lr, gamma: as in :class:`Adam`.

    Attributes:
        initial_alpha (float): ``alpha`` when the rule was made (as in
            Chainer, so that a run resumed from a Chainer snapshot, which
            lacks it, scales the bounds alike); set at the first AdaBound
            update instead where ``adabound`` was off then.
    """

    formula = _formula.Formula('''
        m += (1 - beta1) * (grad - m)
        v += (1 - beta2) * (grad * grad - v)
        if amsgrad:
            vhat = maximum(vhat, v)
        step = alpha_t / (sqrt(vhat if amsgrad else v) + eps)
        if adabound:
            step = clip(step, lower, upper)
        param = param * (1 - eta * weight_decay_rate) - step * m * eta
    ''')
    defaults = _default_hyperparam
    zero_state = ('m', 'v')
    initial_alpha = None

    def __init__(self, parent_hyperparam=None, alpha=None, beta1=None,
                 beta2=None, eps=None, eta=None, weight_decay_rate=None,
                 amsgrad=None, adabound=None, final_lr=None, gamma=None):
        super().__init__(
            parent_hyperparam, alpha=alpha, beta1=beta1, beta2=beta2,
            eps=eps, eta=eta, weight_decay_rate=weight_decay_rate,
            amsgrad=amsgrad, adabound=adabound, final_lr=final_lr,
            gamma=gamma)
        if self.hyperparam.adabound:
            self.initial_alpha = self.hyperparam.alpha

    def init_state(self, param):
        super().init_state(param)
        if self.hyperparam.amsgrad:
            self.state['vhat'] = param.device.xp.zeros_like(param.array)

    def scalars(self, param):
        """``alpha_t``, and AdaBound's ``lower`` and ``upper`` bounds of
        the step at this t."""
        hp = self.hyperparam
        if not hp.adabound:
            return {'alpha_t': self.alpha_t}
        if self.initial_alpha is None:
            self.initial_alpha = hp.alpha
        final_lr = hp.final_lr * hp.alpha / self.initial_alpha
        return {'alpha_t': self.alpha_t,
                'lower': final_lr * (1.0 - 1.0 / (hp.gamma * self.t + 1)),
                'upper': final_lr * (1.0 + 1.0 / (hp.gamma * self.t))}

    def serialize(self, serializer):
        """Also saves :attr:`initial_alpha` of AdaBound, which the bounds
        of a resumed run depend on."""
        super().serialize(serializer)
        if self.hyperparam.adabound:
            self.initial_alpha = update_rule._optional(
                serializer, 'initial_alpha', self.initial_alpha)


class Adam(_BiasCorrectedRate, _elementwise.Method,
           hyperparams=('alpha', 'beta1', 'beta2', 'eps', 'eta',
                        'weight_decay_rate', 'amsgrad', 'adabound',
                        'final_lr', 'gamma')):
    """Adam (Kingma and Ba, arXiv:1412.6980), with decoupled weight decay
    (``eta``, ``weight_decay_rate``: AdamW, Loshchilov and Hutter) and the
    AMSGrad (``amsgrad``) and AdaBound (``adabound``) variants; both flags
    together give AMSBound. With the defaults it is the original Adam.

    Args:
        alpha (float): coefficient of the learning rate.
        beta1 (float): decay rate of the first moment.
        beta2 (float): decay rate of the second moment.
        eps (float): small value for numerical stability.
        eta (float): schedule multiplier (for warm restarts).
        weight_decay_rate (float): decoupled weight decay rate.
        amsgrad (bool): use AMSGrad's running maximum of ``v``.
        adabound (bool): clip the step into AdaBound's bounds.
        final_lr (float): AdaBound's final (SGD) learning rate.
        gamma (float): AdaBound's convergence speed of the bounds.
    """

    rule_class = AdamRule

    def __init__(self, alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 eps=_default_hyperparam.eps, eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate,
                 amsgrad=_default_hyperparam.amsgrad,
                 adabound=_default_hyperparam.adabound,
                 final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma):
        super().__init__(
            alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
            weight_decay_rate=weight_decay_rate, amsgrad=amsgrad,
            adabound=adabound, final_lr=final_lr, gamma=gamma)


class AdamW(Adam):
    """AdamW: :class:`Adam` with decoupled weight decay (Loshchilov and
    Hutter, "Fixing Weight Decay Regularization in Adam").

    Args:
        alpha, beta1, beta2, eps, eta, weight_decay_rate: as in
            :class:`Adam`.
    """

    def __init__(self, alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 eps=_default_hyperparam.eps, eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
                         eta=eta, weight_decay_rate=weight_decay_rate)


class AMSGrad(Adam):
    """AMSGrad: :class:`Adam` dividing by the running maximum of the second
    moment (Reddi et al., "On the Convergence of Adam and Beyond").

    Args:
        alpha, beta1, beta2, eps, eta: as in :class:`Adam`.
    """

    def __init__(self, alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 eps=_default_hyperparam.eps, eta=_default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
                         eta=eta, amsgrad=True)


class _Bounded(Adam):
    """Base of AdaBound and AMSBound, which differ in :attr:`_amsgrad`."""

    _amsgrad = False

    def __init__(self, alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma,
                 eps=_default_hyperparam.eps, eta=_default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
                         eta=eta, amsgrad=self._amsgrad, adabound=True,
                         final_lr=final_lr, gamma=gamma)


class AdaBound(_Bounded):
    """AdaBound: :class:`Adam` with the step clipped into bounds closing in
    on an SGD learning rate (Luo et al., "Adaptive Gradient Methods with
    Dynamic Bound of Learning Rate").

    Args:
        alpha, beta1, beta2, final_lr, gamma, eps, eta: as in :class:`Adam`.
    """


class AMSBound(_Bounded):
    """AMSBound: AdaBound's bounds on AMSGrad (Luo et al.).

    Args:
        alpha, beta1, beta2, final_lr, gamma, eps, eta: as in :class:`Adam`.
    """

    _amsgrad = True
