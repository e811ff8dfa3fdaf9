"""Replace a file only once its new content is complete.

The serializers save through :func:`replacing`, and so do the training
extensions that write files (logs, plots, snapshots, graphs).
"""
import contextlib
import os
import re
import secrets
import stat
import threading

_ATTEMPTS = 100
# The name _create_beside gives: '.{name}.{8 hex digits}.tmp'.
_TEMPORARY = re.compile(r'^\.(.*)\.[0-9a-f]{8}\.tmp$', re.DOTALL)
# The temporary files this thread's replacing() calls are filling.
_filling = threading.local()


@contextlib.contextmanager
def replacing(path):
    """Yield a temporary path in the directory of ``path``; on success move
    the file written there over ``path``.

    A save that fails or is interrupted (an exception, KeyboardInterrupt)
    removes the temporary file and leaves ``path`` as it was; a reader never
    sees a half-written file, since :func:`os.replace` is atomic within one
    file system. A symbolic link is followed, as :func:`open` would.

    Where ``path`` is the temporary file of an enclosing call in this
    thread (a save function that writes atomically, called by a snapshot
    writer that does too), it is yielded as is: the enclosing call
    already makes the write atomic, and syncs it once.
    """
    target = os.path.realpath(os.fspath(path))
    filling = _filling.__dict__.setdefault('paths', set())
    if target in filling:
        yield target
        return
    temporary = _create_beside(target)
    filling.add(temporary)
    try:
        yield temporary
        if os.path.exists(target):
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        with open(temporary, 'r+b') as written:
            os.fsync(written.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.remove(temporary)
        raise
    finally:
        filling.discard(temporary)


def is_temporary(filename):
    """Whether ``filename`` (a base name) is that of a file
    :func:`replacing` is writing, not a finished one."""
    return replaced_name(filename) is not None


def replaced_name(filename):
    """The base name of the file that the temporary file ``filename`` (a
    base name) was to replace, or None if :func:`replacing` does not name
    its files so.

    A save function that writes through :func:`replacing`, called by a
    writer that does too, writes a temporary file of a temporary file: its
    name gives the name of the final file.
    """
    replaced = None
    match = _TEMPORARY.match(filename)
    while match is not None:
        replaced = match.group(1)
        match = _TEMPORARY.match(replaced)
    return replaced


def remove_abandoned(directory, is_replaced):
    """Remove the temporary files of :func:`replacing` in ``directory`` (a
    killed process leaves them) whose final name ``is_replaced(name)``
    accepts; other files stay. Return the names removed.

    Call it only where no save to those names is under way.
    """
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return []
    removed = []
    for name in sorted(names):
        replaced = replaced_name(name)
        path = os.path.join(directory, name)
        if (replaced is not None and is_replaced(replaced)
                and os.path.isfile(path)):
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)
                removed.append(name)
    return removed


def _create_beside(target):
    """Create an empty, new file next to ``target`` and return its path."""
    directory, name = os.path.split(target)
    for _ in range(_ATTEMPTS):
        candidate = os.path.join(
            directory, f'.{name}.{secrets.token_hex(4)}.tmp')
        try:
            # Mode 0o666 lets the umask decide, as for a file open() creates.
            os.close(os.open(
                candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return candidate
    raise FileExistsError(
        f'could not create a temporary file beside {target!r}')
