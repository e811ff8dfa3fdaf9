"""Jobs that go wrong on purpose: ``mpiexec -n 2 python _failing.py MODE``.

- ``raise``: rank 1 raises while rank 0 waits in a broadcast; the hook
  installed with ``global_except_hook.add_hook`` (or by the environment
  variable) must end the job.
- ``missing``: rank 0 allreduces, rank 1 never does (it sleeps).
- ``mismatched``: rank 0 allreduces, rank 1 broadcasts (with ten times
  rank 0's timeout, so that rank 0's error ends the job).
"""
import sys
import time

import numpy

import kusari.distributed as kd


def main(mode):
    timeout = float(sys.argv[2])
    comm = kd.create_communicator('naive', timeout=timeout)
    if mode == 'raise':
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


if __name__ == '__main__':
    main(sys.argv[1])
