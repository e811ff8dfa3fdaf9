"""Releasing the graphs kept by reported variables."""
from kusari.autograd import variable
from kusari.training import extension


class unchain_variables(extension.Extension):
    """Trainer extension that unchains every Variable in the observation
    from its graph after the other extensions have read it, so that a
    graph kept for reporting (``keep_graph_on_report``) is freed each
    iteration."""

    priority = 0

    def trigger(self, trainer):
        return True

    def __call__(self, trainer):
        for value in trainer.observation.values():
            if isinstance(value, variable.Variable):
                value.unchain_backward()
