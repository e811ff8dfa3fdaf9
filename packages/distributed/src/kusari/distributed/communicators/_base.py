"""The interface every communicator implements."""
import abc
import warnings


class CommunicatorBase(abc.ABC):
    """Interface of all communicators.

    The methods are named after MPI's (``bcast`` after ``MPI_Bcast``):
    those ending in ``_obj`` move picklable Python objects, the others
    NumPy or CuPy arrays. Every process of the communicator must make the
    same collective calls in the same order.
    """

    @property
    @abc.abstractmethod
    def rank(self):
        """Rank (process id in the communicator) of this process."""

    @property
    @abc.abstractmethod
    def size(self):
        """Number of processes in the communicator."""

    @property
    @abc.abstractmethod
    def intra_rank(self):
        """Rank of this process among those on its machine."""

    @property
    @abc.abstractmethod
    def intra_size(self):
        """Number of processes on this process's machine."""

    @property
    @abc.abstractmethod
    def inter_rank(self):
        """Rank of this process's machine among the machines."""

    @property
    @abc.abstractmethod
    def inter_size(self):
        """Number of machines taking part."""

    @abc.abstractmethod
    def split(self, color, key):
        """A communicator of the processes that gave the same ``color``,
        ranked by ``key`` (as ``MPI_Comm_split``)."""

    @abc.abstractmethod
    def alltoall(self, xs):
        """Send ``xs[i]`` to rank ``i``; return the tuple of arrays
        received from every rank."""

    @abc.abstractmethod
    def send(self, data, dest, tag):
        """Send an array (or a tuple of them) to ``dest``."""

    @abc.abstractmethod
    def recv(self, source, tag):
        """Receive what ``source`` sent with :meth:`send`."""

    @abc.abstractmethod
    def bcast(self, data, max_buf_len=None, root=0):
        """Broadcast an array from ``root``; return it on every rank."""

    @abc.abstractmethod
    def gather(self, data, root=0):
        """Gather an array from every rank: the tuple of them on ``root``,
        None elsewhere."""

    @abc.abstractmethod
    def allgather(self, x):
        """Gather an array from every rank onto every rank: a tuple."""

    @abc.abstractmethod
    def allreduce(self, data):
        """The sum of ``data`` over all ranks, on every rank."""

    @abc.abstractmethod
    def scatter(self, xs, root=0):
        """Send ``xs[i]`` of ``root`` to rank ``i``; return this rank's."""

    @abc.abstractmethod
    def send_obj(self, obj, dest, tag):
        """Send a picklable object to ``dest``."""

    @abc.abstractmethod
    def recv_obj(self, source, tag):
        """Receive what ``source`` sent with :meth:`send_obj`."""

    @abc.abstractmethod
    def bcast_obj(self, obj, max_buf_len=None, root=0):
        """Broadcast a picklable object from ``root``."""

    @abc.abstractmethod
    def gather_obj(self, obj, root=0):
        """The list of every rank's ``obj`` on ``root``, None elsewhere."""

    @abc.abstractmethod
    def allreduce_obj(self, obj):
        """The sum (``+``) of every rank's ``obj``, on every rank."""

    @abc.abstractmethod
    def bcast_data(self, model):
        """Overwrite the parameters of ``model`` on every rank with those
        of rank 0."""

    @abc.abstractmethod
    def multi_node_mean_grad(self, model, zero_fill=False):
        """Replace each gradient of ``model`` by its mean over the ranks.

        Args:
            model (Link): The link whose gradients are averaged.
            zero_fill (bool): Give initialized parameters without a
                gradient (unused in the last backward) a zero one, so that
                they take part; otherwise they are skipped, and must be
                skipped on every rank. Uninitialized parameters are always
                skipped.
        """

    def allreduce_grad(self, model, zero_fill=False):
        """Deprecated name of :meth:`multi_node_mean_grad`."""
        warnings.warn(
            'allreduce_grad is deprecated; use multi_node_mean_grad',
            DeprecationWarning, stacklevel=2)
        self.multi_node_mean_grad(model, zero_fill)

    @abc.abstractmethod
    def get_config(self, name=None):
        """The value of configuration ``name``, or a dict of all of them.
        """

    @abc.abstractmethod
    def set_config(self, name, value=True, **kwargs):
        """Set configuration ``name`` to ``value``."""

    def finalize(self):
        """Release what the communicator holds; it must not be used after.
        """
