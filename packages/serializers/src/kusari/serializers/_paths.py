"""Keys of a serialized tree: ``'child/grandchild/name'``, in both formats."""


def normalize_path(caller, path):
    """Return ``path`` as a prefix: no leading ``/``, one trailing ``/``.

    Chainer documents the prefix with its trailing slash
    (``'updater/model:main/'``); the slash is added when it is left out so
    that the prefix cannot run into the key after it.
    """
    if not isinstance(path, str):
        raise TypeError(
            f'{caller}: path must be a str, got {type(path).__name__}')
    path = path.lstrip('/')
    if path and not path.endswith('/'):
        path += '/'
    return path


def full_key(caller, path, key):
    """Return the key of value ``key`` under the prefix ``path``."""
    return path + _checked(caller, key).lstrip('/')


def child_path(caller, path, key):
    """Return the prefix of the child named ``key`` under ``path``."""
    return path + child_name(caller, key) + '/'


def child_name(caller, key):
    """Return the name of the child ``key``, without its slashes."""
    return _checked(caller, key).strip('/')


def describe_key(root, name):
    """How an error names the value stored under ``name``, read by a
    deserializer made with the prefix ``root``: by its path in the object
    being loaded, as ``Link.namedparams`` writes it, and by its key in the
    archive: ``/predictor/l1/W (key 'predictor/l1/W')``."""
    return f'/{name[len(root):]} (key {name!r})'


def _checked(caller, key):
    if not isinstance(key, str) or not key.strip('/'):
        raise ValueError(
            f'{caller}: a key must be a non-empty str other than slashes, '
            f'got {key!r}')
    return key
