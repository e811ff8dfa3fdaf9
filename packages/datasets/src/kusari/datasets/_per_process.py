"""File handles that a dataset reopens in each process.

A forked worker of a multiprocess iterator must not share its parent's
file handles: they share one offset, so a seek in one process moves the
other's. Handles are therefore reopened when the process id changes, are
not pickled, and seek-then-read runs under a lock so that threads can
share a dataset.
"""
import os
import threading


class PerProcessFiles:
    """Files opened lazily by ``opener()``, once per process.

    ``opener`` returns a list of file objects.
    """

    def __init__(self, opener):
        self._opener = opener
        self._files = None
        self._pid = None
        self.lock = threading.Lock()

    def get(self):
        """The files of the current process.

        Seek-then-read must be serialised, by ``lock`` or a caller's own.
        """
        if self._pid != os.getpid():
            self._files = self._opener()
            self._pid = os.getpid()
        return self._files

    def close(self):
        """Close the files of the current process, if open."""
        with self.lock:
            if self._files is not None and self._pid == os.getpid():
                for f in self._files:
                    f.close()
            self._files = None
            self._pid = None

    def __getstate__(self):
        return {'_opener': self._opener}

    def __setstate__(self, state):
        self.__init__(state['_opener'])
