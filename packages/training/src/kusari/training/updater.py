"""The interface of updaters: what a trainer asks of one."""


class Updater:
    """Base class of updaters.

    An updater owns the iterators and optimizers of a training, performs
    one update per :meth:`update` call, and tells how far training has gone
    through ``iteration``, ``epoch``, ``epoch_detail``,
    ``previous_epoch_detail`` and ``is_new_epoch``.
    """

    def connect_trainer(self, trainer):
        """Called by the trainer that is given this updater."""

    def finalize(self):
        """Release what the updater holds, at the end of training."""

    def get_optimizer(self, name):
        """The optimizer registered as ``name``."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement get_optimizer')

    def get_all_optimizers(self):
        """A dict of every optimizer by name."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement get_all_optimizers')

    def update(self):
        """Perform one update."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement update')

    def serialize(self, serializer):
        """Save or load the state of the updater."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement serialize')
