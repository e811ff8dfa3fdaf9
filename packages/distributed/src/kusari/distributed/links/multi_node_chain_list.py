"""A model made of components on several processes."""
import numbers

from kusari.distributed.functions import point_to_point_communication
from kusari.distributed.functions import pseudo_connect
from kusari.links import link


def _ranks(value, argument, size):
    if value is None:
        return None
    ranks = [value] if isinstance(value, numbers.Integral) else list(value)
    for rank in ranks:
        if not isinstance(rank, numbers.Integral) or not 0 <= rank < size:
            raise ValueError(
                f'MultiNodeChainList.add_link: {argument} must be None, a '
                f'rank in [0, {size}) or a list of them, got {value!r}')
    return ranks


def _connect(delegate, outputs):
    """``outputs`` connected behind ``delegate`` (if any)."""
    if delegate is None:
        return outputs
    if isinstance(outputs, tuple):
        return pseudo_connect.pseudo_connect(delegate, *outputs)
    return pseudo_connect.pseudo_connect(delegate, outputs)


class MultiNodeChainList(link.ChainList):
    """A chain of components of a model split across processes.

    Each component is added with the processes it receives its inputs
    from (``rank_in``) and sends its outputs to (``rank_out``); None
    means the model's own inputs, or the model's output. Calling the
    model runs the components in order, sending and receiving between
    them, and ties the unconnected pieces together with delegate
    variables so that one backward pass runs through all of them in
    reverse order (see :func:`~kusari.distributed.functions.send`).

    Args:
        comm: The communicator.
    """

    def __init__(self, comm):
        super().__init__()
        self._comm = comm
        self._rank_inouts = []

    def add_link(self, link, rank_in=None, rank_out=None):
        """Add a component.

        Args:
            link (Link): The component.
            rank_in (int, list of ints or None): The processes whose
                outputs it takes as its arguments, in order; None: the
                model's inputs.
            rank_out (int, list of ints or None): The processes it sends
                its output to; None: its output is the model's output.
        """
        size = self._comm.size
        ranks = (_ranks(rank_in, 'rank_in', size),
                 _ranks(rank_out, 'rank_out', size))
        super().add_link(link)
        self._rank_inouts.append(ranks)

    def forward(self, *inputs):
        """Run the components; return the model's output, or the delegate
        variable of the last send where no component gives one."""
        output = delegate = None
        for component, (ranks_in, ranks_out) in zip(self,
                                                    self._rank_inouts):
            if ranks_in is None:
                arguments = inputs
            else:
                arguments = []
                for rank in ranks_in:
                    arguments.append(point_to_point_communication.recv(
                        self._comm, rank, delegate_variable=delegate))
                    delegate = None
            result = component(*arguments)
            if ranks_out is None:
                output = _connect(delegate, result)
                delegate = None
                continue
            for rank in ranks_out:
                sent = point_to_point_communication.send(
                    result, self._comm, rank)
                delegate = sent if delegate is None else \
                    pseudo_connect.pseudo_connect(delegate, sent)
        if output is None:
            return delegate
        return _connect(delegate, output)
