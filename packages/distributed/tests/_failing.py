"""Jobs that go wrong on purpose: ``mpiexec -n 2 python _failing.py MODE``.

- ``raise``: rank 1 raises while rank 0 waits in a broadcast; the hook
  installed with ``global_except_hook.add_hook`` (or by the environment
  variable) must end the job.
- ``missing``: rank 0 allreduces, rank 1 never does (it sleeps).
- ``mismatched``: rank 0 allreduces, rank 1 broadcasts (with ten times
  rank 0's timeout, so that rank 0's error ends the job).
- ``kill``: every rank trains a model with a multi-node optimizer; after
  a few updates the last rank writes its process id and the time to the
  file named by the third argument and kills itself (SIGKILL, as the
  out-of-memory killer does), in the middle of the training.
"""
import os
import signal
import sys
import time

import numpy

import kusari.distributed as kd


def main(mode):
    timeout = float(sys.argv[2])
    comm = kd.create_communicator('naive', timeout=timeout)
    if mode == 'kill':
        train_until_killed(comm, sys.argv[3])
    elif mode == 'raise':
        if len(sys.argv) > 3:
            kd.global_except_hook.add_hook()
        if comm.rank == 1:
            raise ValueError('failure on purpose')
        comm.bcast_obj('never matched')
    elif comm.rank == 0:
        comm.allreduce(numpy.ones(3, numpy.float32))
    elif mode == 'missing':
        time.sleep(10 * timeout)
    else:
        comm.set_config('timeout', 10 * timeout)
        comm.bcast_obj(None)


def train_until_killed(comm, path):
    from kusari.autograd import functions as F
    from kusari.links import layers as L
    from kusari.training import optimizers
    model = L.Linear(20, 10)
    optimizer = kd.create_multi_node_optimizer(optimizers.Adam(), comm)
    optimizer.setup(model)
    x = numpy.ones((8, 20), numpy.float32)
    for step in range(10 ** 6):
        optimizer.update(lambda: F.sum(model(x) ** 2))
        if step == 20 and comm.rank == comm.size - 1:
            with open(path, 'w') as out:
                out.write(f'{os.getpid()} {time.time()}')
            os.kill(os.getpid(), signal.SIGKILL)


if __name__ == '__main__':
    main(sys.argv[1])
