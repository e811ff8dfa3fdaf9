"""Classifier: a predictor wrapped with a loss and an accuracy."""
from kusari.links import reporter
from kusari.links.link import Chain


class Classifier(Chain):
    """Computes the loss (and accuracy) of a predictor on labelled data.

    Calling it with ``(*inputs, t)`` runs ``y = predictor(*inputs)`` and
    returns ``lossfun(y, t)``, reporting ``loss`` and, when
    :attr:`compute_accuracy` is true, ``accuracy = accfun(y, t)`` to the
    current reporter with this link as observer (so a trainer shows them as
    ``main/loss`` and ``main/accuracy``).

    Args:
        predictor (Link): the model predicting from the inputs.
        lossfun: ``lossfun(y, t)``; ``F.softmax_cross_entropy`` by default.
        accfun: ``accfun(y, t)``; ``F.accuracy`` by default.
        label_key (int or str): which argument is the label: a position
            among the positional arguments (default: the last), or a
            keyword argument name.

    Attributes:
        compute_accuracy (bool): whether to compute and report accuracy.
        y, loss, accuracy: the values of the last call.
    """

    compute_accuracy = True

    def __init__(self, predictor, lossfun=None, accfun=None, label_key=-1):
        if isinstance(label_key, bool) or \
                not isinstance(label_key, (int, str)):
            raise TypeError(
                f'Classifier: label_key must be int or str, but is '
                f'{type(label_key).__name__}')
        if lossfun is None or accfun is None:
            # The functions package is imported only when a default is
            # needed, so that links import without it.
            from kusari.autograd import functions
            lossfun = lossfun or functions.softmax_cross_entropy
            accfun = accfun or functions.accuracy
        super().__init__()
        self.lossfun = lossfun
        self.accfun = accfun
        self.label_key = label_key
        self.y = None
        self.loss = None
        self.accuracy = None
        with self.init_scope():
            self.predictor = predictor

    def _split_label(self, args, kwargs):
        key = self.label_key
        if isinstance(key, int):
            if not -len(args) <= key < len(args):
                raise ValueError(
                    f'Classifier: Label key {key} is out of bounds for '
                    f'{len(args)} positional arguments')
            index = key % len(args)
            return args[:index] + args[index + 1:], kwargs, args[index]
        if key not in kwargs:
            raise ValueError(
                f'Classifier: Label key {key!r} is not found among the '
                f'keyword arguments ({", ".join(kwargs) or "none given"})')
        kwargs = dict(kwargs)
        return args, kwargs, kwargs.pop(key)

    def forward(self, *args, **kwargs):
        """Return the loss of the predictor on ``args`` / ``kwargs``, the
        label taken out of them by :attr:`label_key`."""
        args, kwargs, t = self._split_label(args, kwargs)
        self.y = self.loss = self.accuracy = None
        self.y = self.predictor(*args, **kwargs)
        self.loss = self.lossfun(self.y, t)
        reporter.report({'loss': self.loss}, self)
        if self.compute_accuracy:
            self.accuracy = self.accfun(self.y, t)
            reporter.report({'accuracy': self.accuracy}, self)
        return self.loss
