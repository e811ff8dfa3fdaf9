"""Differentiable collective communication: each function's backward
runs the collective that sends the gradients the other way (broadcast
against gather-and-sum, gather against scatter, all-gather against
all-to-all-and-sum, all-to-all against itself).

Every process of the communicator must call the function; a process
that gives no input array gets a delegate variable as input instead, so
that its outputs are connected and backward runs there too.
"""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd import variable
from kusari.distributed.functions import _delegate


def _variables(arrays):
    return tuple(variable.Variable(a) for a in arrays)


def _sum(arrays):
    total = arrays[0].copy()
    for array in arrays[1:]:
        total += array
    return total


class _Collective(function_node.FunctionNode):

    def __init__(self, comm, root=0):
        self.comm = comm
        self.root = root

    @property
    def is_root(self):
        return self.comm.rank == self.root

    def _outputs(self, outputs):
        self.specs = _delegate.output_specs(outputs)
        return tuple(outputs)

    def _delegate_grad(self, grads):
        return _delegate.delegate_grad(backend.get_array_module(*grads)),


class Bcast(_Collective):
    """Root's input to every process; backward sums the gradients of all
    processes on the root."""

    def forward(self, inputs):
        return self._outputs((self.comm.bcast(
            inputs[0] if self.is_root else None, root=self.root),))

    def backward(self, target_input_indexes, grad_outputs):
        grads = _delegate.filled_grads(grad_outputs, self.specs)
        gathered = self.comm.gather(grads[0], self.root)
        if self.is_root:
            return variable.Variable(_sum(gathered)),
        return self._delegate_grad(grads)


class Gather(_Collective):
    """Every process's input to the root (the root outputs all of them,
    the others a delegate array); backward scatters the gradients."""

    def forward(self, inputs):
        x, = inputs
        gathered = self.comm.gather(x, self.root)
        if self.is_root:
            return self._outputs(gathered)
        return self._outputs(
            (_delegate.delegate_array(backend.get_array_module(x)),))

    def backward(self, target_input_indexes, grad_outputs):
        grads = _delegate.filled_grads(grad_outputs, self.specs)
        return variable.Variable(self.comm.scatter(
            grads if self.is_root else None, self.root)),


class Scatter(_Collective):
    """The root's i-th input to process i; backward gathers the gradients
    on the root."""

    def forward(self, inputs):
        return self._outputs((self.comm.scatter(
            inputs if self.is_root else None, self.root),))

    def backward(self, target_input_indexes, grad_outputs):
        grads = _delegate.filled_grads(grad_outputs, self.specs)
        gathered = self.comm.gather(grads[0], self.root)
        if self.is_root:
            return _variables(gathered)
        return self._delegate_grad(grads)


class AllGather(_Collective):
    """Every process's input to every process; backward gives each input
    the sum of the gradients all processes have for it."""

    def forward(self, inputs):
        return self._outputs(self.comm.allgather(inputs[0]))

    def backward(self, target_input_indexes, grad_outputs):
        grads = _delegate.filled_grads(grad_outputs, self.specs)
        return variable.Variable(_sum(self.comm.alltoall(grads))),


class AllToAll(_Collective):
    """Input i to process i, from every process; backward sends the
    gradients back the same way."""

    def forward(self, inputs):
        return self._outputs(self.comm.alltoall(inputs))

    def backward(self, target_input_indexes, grad_outputs):
        grads = _delegate.filled_grads(grad_outputs, self.specs)
        return _variables(self.comm.alltoall(grads))


def _check_count(function, xs, comm):
    if not isinstance(xs, (tuple, list)) or len(xs) != comm.size:
        raise ValueError(
            f'{function}: xs must be a list of {comm.size} variables (one '
            f'per process) on rank {comm.rank}, got '
            f'{len(xs) if isinstance(xs, (tuple, list)) else type(xs)}')


def bcast(comm, x, root=0):
    """Broadcast ``x`` of process ``root`` to every process.

    Args:
        comm: The communicator.
        x (Variable): The variable to send (root); ignored elsewhere.
        root (int): The sending process.

    Returns:
        Variable: root's ``x`` on every process. Backward sums the
        gradients of all processes into root's ``x``.
    """
    node = Bcast(comm, root)
    inputs = (x,) if node.is_root else (_delegate.delegate_variable(),)
    y, = node.apply(inputs)
    return y


def gather(comm, x, root=0):
    """Gather ``x`` of every process on ``root``.

    Returns:
        tuple of Variables: every process's ``x`` on ``root``; elsewhere a
        delegate variable, whose backward receives that process's gradient
        (Chainer returns None there, which leaves backward unreachable).
        Backward scatters the root's gradients back to the processes.
    """
    outputs = Gather(comm, root).apply((x,))
    return outputs if comm.rank == root else outputs[0]


def scatter(comm, xs, root=0):
    """Send ``xs[i]`` of process ``root`` to process ``i``.

    Args:
        comm: The communicator.
        xs (list of Variables): One per process on ``root``; None
            elsewhere.
        root (int): The sending process.

    Returns:
        Variable: this process's part. Backward gathers the gradients
        into root's ``xs``.
    """
    node = Scatter(comm, root)
    if node.is_root:
        _check_count('scatter', xs, comm)
        inputs = tuple(xs)
    else:
        inputs = (_delegate.delegate_variable(),)
    y, = node.apply(inputs)
    return y


def alltoall(comm, xs):
    """Send ``xs[i]`` to process ``i``, from every process.

    Returns:
        tuple of Variables: what each process sent here. Backward sends
        the gradients back, so it needs no delegate variable.
    """
    _check_count('alltoall', xs, comm)
    return AllToAll(comm).apply(tuple(xs))


def allgather(comm, x):
    """Gather ``x`` of every process on every process.

    Returns:
        tuple of Variables: every process's ``x``. Backward gives each
        ``x`` the sum of the gradients all processes computed for it.
    """
    return AllGather(comm).apply((x,))
