"""What the weight-reparametrizing hooks share: during a link's forward,
its weight parameter is replaced by a function of it, then put back."""
from kusari.links import link_hook
from kusari.links.links.connection import linear


class WeightHook(link_hook.LinkHook):
    """Base of hooks that make a link compute with ``transform(W)``.

    Subclasses implement :meth:`normalize_weight`; the hook works only on
    one link (``link.add_hook``), whose ``weight_name`` parameter it swaps
    for the forward. A lazy weight is shaped from the first input, as the
    link's own forward would.
    """

    def __init__(self, weight_name, name):
        self.weight_name = weight_name
        if name is not None:  # else the class's name attribute
            self.name = name
        self._originals = []

    def added(self, link):
        if link is None:  # (a global hook: Chainer's error)
            raise NotImplementedError(
                f'{type(self).__name__}: the hook works on one link, not as '
                f'a global hook; register it with link.add_hook')
        if self.weight_name not in link._params:
            raise ValueError(
                f'{type(self).__name__}: {type(link).__name__} has no '
                f'parameter {self.weight_name!r}')

    def normalize_weight(self, link):
        """Return the weight to compute with, a function of the link's."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement normalize_weight')

    def prepare(self, link, args):
        """Called before the first swap; lazy weights are known here."""

    def forward_preprocess(self, args):
        link = args.link
        weight = getattr(link, self.weight_name)
        if weight.array is None:
            _initialize_lazily(self, link, args)
        self.prepare(link, args)
        normalized = self.normalize_weight(link)
        self._originals.append(weight)
        # A plain attribute for the call: the registered Parameter is put
        # back by forward_postprocess.
        link.__dict__[self.weight_name] = normalized

    def forward_postprocess(self, args):
        args.link.__dict__[self.weight_name] = self._originals.pop()


def _initialize_lazily(hook, link, args):
    """Shape ``link``'s lazy parameters from the forward's arguments."""
    initialize = getattr(link, '_initialize_params', None)
    if initialize is None or not args.args:
        raise RuntimeError(
            f'{type(hook).__name__}: the weight {hook.weight_name!r} of '
            f'{type(link).__name__} is not initialized and the link cannot '
            f'shape it from its input; initialize it (call the link once) '
            f'before adding the hook')
    if isinstance(link, linear.Linear):
        initialize(args.args[0], args.kwargs.get(
            'n_batch_axes', args.args[1] if len(args.args) > 1 else 1))
    else:
        initialize(args.args[0])
