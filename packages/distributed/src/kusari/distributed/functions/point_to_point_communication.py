"""Differentiable send and receive between two processes.

``send`` returns a *delegate variable*: a scalar zero that holds the graph
up to the send, so that backpropagating from it receives the gradients
from the peer. ``recv`` takes the previous component's delegate variable,
so that one backward pass goes through both components, in the reverse of
the forward order on every process (which is what keeps the sends and
receives of the backward pass matched).
"""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd import variable
from kusari.distributed.functions import _delegate


class Send(function_node.FunctionNode):
    """Sends its inputs to ``peer``; backward receives their gradients."""

    def __init__(self, comm, peer, tag):
        self.comm = comm
        self.peer = peer
        self.tag = tag

    def forward(self, inputs):
        self.comm.send(inputs if len(inputs) > 1 else inputs[0],
                       self.peer, self.tag)
        return _delegate.delegate_array(backend.get_array_module(*inputs)),

    def backward(self, target_input_indexes, grad_outputs):
        grads = self.comm.recv(self.peer, self.tag)
        if not isinstance(grads, tuple):
            grads = (grads,)
        return tuple(variable.Variable(g) for g in grads)


class Recv(function_node.FunctionNode):
    """Receives arrays from ``peer`` (its input is the delegate variable
    of the previous component); backward sends their gradients back."""

    def __init__(self, comm, peer, tag):
        self.comm = comm
        self.peer = peer
        self.tag = tag

    def forward(self, inputs):
        received = self.comm.recv(self.peer, self.tag)
        self.is_tuple = isinstance(received, tuple)
        outputs = received if self.is_tuple else (received,)
        self.specs = _delegate.output_specs(outputs)
        return outputs

    def backward(self, target_input_indexes, grad_outputs):
        grads = _delegate.filled_grads(grad_outputs, self.specs)
        self.comm.send(grads if self.is_tuple else grads[0], self.peer,
                       self.tag)
        return _delegate.delegate_grad(backend.get_array_module(*grads)),


def send(x, communicator, rank, tag=0):
    """Send ``x`` (a Variable or a tuple of them) to process ``rank``.

    Args:
        x: Variable, array, or tuple of them.
        communicator: The communicator.
        rank (int): The receiving process.
        tag (int): Message tag.

    Returns:
        Variable: the delegate variable, a scalar zero holding the graph;
        backpropagating from it receives the gradients of ``x`` from
        ``rank``. Return it from the model (or pass it to :func:`recv` or
        :func:`pseudo_connect`) so that backward reaches the send.
    """
    if rank == communicator.rank:
        raise ValueError(f'send: rank {rank} is the sending process itself')
    xs = tuple(x) if isinstance(x, (tuple, list)) else (x,)
    delegate, = Send(communicator, rank, tag).apply(xs)
    return delegate


def recv(communicator, rank, delegate_variable=None, tag=0,
         force_tuple=False):
    """Receive what process ``rank`` sent with :func:`send`.

    Args:
        communicator: The communicator.
        rank (int): The sending process.
        delegate_variable (Variable): The delegate variable of the previous
            graph component on this process, so that backward reaches it
            after sending the gradients of this receive.
        tag (int): Message tag.
        force_tuple (bool): Return a tuple even for one array.

    Returns:
        Variable, or tuple of Variables when a tuple was sent (or
        ``force_tuple``); backward sends their gradients to ``rank``.
    """
    if rank == communicator.rank:
        raise ValueError(
            f'recv: rank {rank} is the receiving process itself')
    if delegate_variable is None:
        delegate_variable = _delegate.delegate_variable()
    node = Recv(communicator, rank, tag)
    outputs = node.apply((delegate_variable,))
    if len(outputs) == 1 and not force_tuple and not node.is_tuple:
        return outputs[0]
    return outputs
