"""Gaussian noise added to gradients."""
import math

from kusari.array import backend


def exponential_decay_noise(xp, shape, dtype, hook, opt):
    """Annealed Gaussian noise of Neelakantan et al. ("Adding Gradient
    Noise Improves Learning for Very Deep Networks"): variance
    ``hook.eta / (1 + opt.t) ** 0.55``, ``opt`` being the update rule."""
    std = math.sqrt(hook.eta / (1 + opt.t) ** 0.55)
    return xp.random.normal(0, std, shape).astype(dtype, copy=False)


class GradientNoise:
    """Hook adding noise ``noise_func(xp, shape, dtype, hook, rule)`` to
    each gradient; by default Gaussian noise of variance
    ``eta / (1 + t) ** 0.55`` at step ``t`` of the rule.

    Args:
        eta (float): scale of the noise (0.01, 0.3 or 1.0 are advised for
            the default noise).
        noise_func (callable): makes the noise array.

    Attributes:
        eta (float): scale of the noise.
        timing (str): ``'pre'`` (before the update) or ``'post'``.
    """

    name = 'GradientNoise'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, eta, noise_func=exponential_decay_noise):
        self.eta = eta
        self.noise_func = noise_func

    def __call__(self, rule, param):
        grad = param.grad
        if grad is None:
            return
        xp = backend.get_array_module(grad)
        with backend.get_device_from_array(grad):
            grad += self.noise_func(xp, grad.shape, grad.dtype, self, rule)
