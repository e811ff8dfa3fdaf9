"""Spectral normalization: divide a weight by its largest singular value.

Miyato et al., Spectral Normalization for Generative Adversarial Networks
(ICLR 2018). The singular value is estimated by power iteration, whose
vector ``u`` is kept on the link as a persistent value and refined at each
call in training mode.
"""
import numpy

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import functions as F
from kusari.autograd import variable
from kusari.links.link_hooks import _weight_hook


def _l2normalize(xp, vector, eps):
    return vector / (xp.linalg.norm(vector) + eps)


class SpectralNormalization(_weight_hook.WeightHook):
    """Computes a link's forward with ``W / sigma(W)``.

    ``sigma`` is the largest singular value of W seen as a matrix of
    ``W.shape[axis]`` rows (axis 1 for deconvolutions, 0 otherwise).

    Args:
        n_power_iteration (int): power iterations per call.
        eps (float): added to norms to avoid division by zero.
        use_gamma (bool): also learn a scale: a 0-d parameter ``gamma``
            of the link, starting at sigma(W).
        factor (float): divide by ``sigma / factor`` instead.
        weight_name (str): the parameter to normalize; the vector is kept
            as the persistent value ``<weight_name>_u`` of the link.
        name (str): the hook's name; ``'SpectralNormalization'``.
    """

    name = 'SpectralNormalization'

    def __init__(self, n_power_iteration=1, eps=1e-6, use_gamma=False,
                 factor=None, weight_name='W', name=None):
        if not isinstance(n_power_iteration, int) or n_power_iteration < 1:
            raise ValueError(
                f'SpectralNormalization: n_power_iteration must be an int '
                f'>= 1, got {n_power_iteration!r}')
        super().__init__(weight_name, name)
        self.n_power_iteration = n_power_iteration
        self.eps = eps
        self.use_gamma = use_gamma
        self.factor = factor
        self.vector_name = f'{weight_name}_u'
        self.gamma_name = 'gamma'
        self.axis = 0
        self.v = None

    def added(self, link):
        super().added(link)
        # A deconvolution's weight has its output channels on axis 1.
        if type(link).__name__.startswith('Deconvolution'):
            self.axis = 1
        if getattr(link, self.weight_name).array is not None:
            self._initialize(link)

    def deleted(self, link):
        if link is None or self.vector_name not in link._persistent:
            return
        delattr(link, self.vector_name)
        if self.use_gamma:
            delattr(link, self.gamma_name)

    def prepare(self, link, args):
        if self.vector_name not in link._persistent:
            self._initialize(link)

    def _initialize(self, link):
        weight = getattr(link, self.weight_name)
        xp = link.xp
        rows = weight.shape[self.axis]
        if rows == 0:
            raise ValueError(
                f'SpectralNormalization: {self.weight_name}.shape'
                f'[{self.axis}] of {type(link).__name__} must be positive, '
                f'got shape {weight.shape}')
        # Stored as drawn (the power iteration normalizes it), as Chainer.
        with link.device:
            u = xp.random.normal(size=(rows,)).astype(weight.dtype)
        link.add_persistent(self.vector_name, u)
        if self.use_gamma:
            matrix = backend.CpuDevice().send_array(
                self._matrix(weight).array)
            sigma = numpy.linalg.svd(matrix, compute_uv=False)[0]
            gamma = numpy.asarray(sigma, dtype=weight.dtype)
            with link.init_scope():
                setattr(link, self.gamma_name, variable.Parameter(
                    link.device.send(gamma)))

    def _matrix(self, weight):
        if self.axis != 0:
            weight = F.swapaxes(weight, 0, self.axis)
        return F.reshape(weight, (weight.shape[0], -1))

    def normalize_weight(self, link):
        """``W / sigma(W)`` (times gamma, over factor), differentiable in
        W; refines the power-iteration vector in training mode."""
        weight = getattr(link, self.weight_name)
        matrix = self._matrix(weight)
        xp = link.xp
        u = getattr(link, self.vector_name)
        with link.device:
            m = matrix.array
            for _ in range(self.n_power_iteration):
                v = _l2normalize(xp, m.T.dot(u), self.eps)
                u = _l2normalize(xp, m.dot(v), self.eps)
        sigma = F.sum(F.matmul(u[None], matrix)[0] * v)
        if self.factor is not None:
            sigma = sigma / self.factor
        normalized = weight / F.broadcast_to(sigma, weight.shape)
        if self.use_gamma:
            gamma = getattr(link, self.gamma_name)
            normalized = F.broadcast_to(gamma, weight.shape) * normalized
        self.v = v
        if configuration.config.train:
            backend.copyto(getattr(link, self.vector_name), u)
        return normalized
