"""Links: the building blocks of models, which own parameters.

A :class:`Link` holds :class:`~kusari.autograd.Parameter` objects and
persistent values; a :class:`Chain` also holds child links by name, a
:class:`ChainList` by position. Everything that walks the tree (parameters,
serialization, device moves, copies, printing) goes through one method,
``_named_children``, which each container defines.
"""
import contextlib
import copy as copy_module
import inspect
import warnings
from collections import abc

import numpy

from kusari.array import backend
from kusari.array import device_resident
from kusari.array import initializers
from kusari.autograd.utils import type_check
from kusari.autograd.variable import Parameter
from kusari.links import link_hook

_COPY_MODES = ('share', 'copy', 'init')


# Link.repeat returns a Sequential: a ChainList, in a module that imports
# this one. kusari.links hands the class over with register_sequential()
# when it is imported.
_sequential_type = None


def register_sequential(sequential_type):
    """Give :meth:`Link.repeat` the class it returns (called once, by
    ``kusari.links``)."""
    global _sequential_type
    _sequential_type = sequential_type


def _add_sorted(registry, name):
    """Add ``name`` to a dict used as an ordered set, keeping it sorted so
    that parameters are visited in the same order in every process."""
    if name in registry:
        return
    names = sorted([*registry, name])
    registry.clear()
    registry.update(dict.fromkeys(names))


def _shape_and_dtype(value):
    """``Link(name=...)`` takes a shape, or a ``(shape, dtype)`` pair."""
    if isinstance(value, tuple) and len(value) == 2 and \
            not isinstance(value[1], (int, numpy.integer)):
        return value
    return value, numpy.float32


def _check_mode(caller, mode):
    if mode not in _COPY_MODES:
        raise ValueError(
            f"{caller}: mode must be 'share', 'copy' or 'init', got "
            f"{mode!r}")


def _shared_parameter(param):
    """A new Parameter sharing ``param``'s array (also the one it gets
    when it is initialized later), without a gradient."""
    shared = copy_module.copy(param)
    shared.grad = None
    return shared


def _note_link_path(error, link):
    """Name, in a note on ``error``, the link it was raised in.

    Each named link the error leaves puts its name in front of the path,
    so that once it leaves the root the note reads ``(raised in the link
    /predictor/l1, a Linear)``: a link does not know its parent, so the
    path is built on the way out (a raise costs this, a call nothing).
    The error keeps its type and message: the note is added with
    ``add_note`` (Python 3.11), or to a one-string message before.
    """
    name = link.__dict__.get('name')
    if name is None:
        return
    path, innermost, old = getattr(error, '_kusari_link_path', (
        '', type(link).__name__, None))
    path = f'/{name}{path}'
    note = f'(raised in the link {path}, a {innermost})'
    try:
        error._kusari_link_path = path, innermost, note
    except AttributeError:  # it refuses attributes (a frozen dataclass)
        return
    if hasattr(error, 'add_note'):
        notes = getattr(error, '__notes__', [])
        if old in notes:
            notes.remove(old)
        error.add_note(note)
    elif len(error.args) == 1 and isinstance(error.args[0], str):
        message = error.args[0]
        if old is not None:
            message = message.removesuffix('\n' + old)
        error.args = (f'{message}\n{note}',)


def _indent(text):
    return ''.join(f'  {line}\n' for line in text.splitlines())


class Link(device_resident.DeviceResident, link_hook.Hooked):
    """A building block of models: parameters, persistents, and forward.

    Parameters are registered by assigning
    :class:`~kusari.autograd.Parameter` objects to attributes inside
    ``with self.init_scope():`` (or with :meth:`add_param`); persistent
    values, saved and moved with the link but not optimized, with
    :meth:`add_persistent`. Outside ``init_scope`` an assignment is a plain
    attribute. Calling a link calls its ``forward`` method, between the
    callbacks of link hooks if any are registered.

    Args:
        params: ``name=shape`` or ``name=(shape, dtype)``: parameters to
            add, filled with NaN (as :meth:`add_param` without initializer).

    Attributes:
        name (str): the name of this link in its parent, or None.
    """

    _within_init_scope = False
    _local_link_hooks = None

    def __init__(self, **params):
        self._params = {}
        self._persistent = {}
        self.name = None
        for name, value in params.items():
            shape, dtype = _shape_and_dtype(value)
            self.add_param(name, shape, dtype=dtype)

    # -- registration --------------------------------------------------

    def _describe(self):
        if self.__dict__.get('name') is None:
            return type(self).__name__
        return f'{type(self).__name__} {self.name!r}'

    def _check_init_done(self, caller):
        if '_params' not in self.__dict__:
            raise RuntimeError(
                f'{type(self).__name__}.{caller}: Link.__init__() has not '
                f'been called; call super().__init__() first')

    @property
    def within_init_scope(self):
        """Whether assignments register parameters and links now."""
        return self._within_init_scope

    @contextlib.contextmanager
    def init_scope(self):
        """A block in which assigning a Parameter (or, in a Chain, a Link)
        to an attribute registers it under that name."""
        self._check_init_done('init_scope')
        previous = self._within_init_scope
        self.__dict__['_within_init_scope'] = True
        try:
            yield
        finally:
            self.__dict__['_within_init_scope'] = previous

    def __setattr__(self, name, value):
        if self._within_init_scope and isinstance(value, Parameter):
            self._register_param(name, value)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self._params.pop(name, None)
        self._persistent.pop(name, None)
        object.__delattr__(self, name)

    def _check_new_name(self, caller, what, name):
        """A registered name may not shadow a method or other class
        attribute, nor another kind of registered value."""
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(
                f'{self._describe()}.{caller}: a {what} name must be an '
                f'identifier, got {name!r}')
        if hasattr(type(self), name):
            raise AttributeError(
                f'{self._describe()}.{caller}: cannot register {what} '
                f'{name!r}: it would hide the class attribute '
                f'{type(self).__name__}.{name}')
        for registry, kind in self._registries():
            if kind != what and name in registry:
                raise AttributeError(
                    f'{self._describe()}.{caller}: cannot register {what} '
                    f'{name!r}: it is already a {kind} of this link')

    def _registries(self):
        return ((self._params, 'parameter'),
                (self._persistent, 'persistent value'))

    def _register_param(self, name, param):
        self._check_new_name('init_scope', 'parameter', name)
        param.name = name
        _add_sorted(self._params, name)

    def add_param(self, name, shape=None, dtype=numpy.float32,
                  initializer=None):
        """Register a new parameter ``name``.

        Args:
            name (str): the attribute name; it must not exist yet.
            shape (int or tuple of ints): its shape; None leaves it
                uninitialized until :meth:`Parameter.initialize` is called.
            dtype: its dtype when no ``initializer`` is given.
            initializer: an initializer, scalar or array; None fills it
                with NaN (it is expected to be set later).
        """
        self._check_init_done('add_param')
        if name in self.__dict__:
            raise AttributeError(
                f'{self._describe()}.add_param: cannot register a new '
                f'parameter {name!r}: attribute exists')
        self._check_new_name('add_param', 'parameter', name)
        if initializer is None:
            initializer = initializers.NaN(dtype)
        param = Parameter(initializer, shape)
        with self.init_scope():
            setattr(self, name, param)

    def add_persistent(self, name, value):
        """Register a persistent value: an array or scalar saved by
        :meth:`serialize` and moved by :meth:`to_device`, not optimized."""
        self._check_init_done('add_persistent')
        if name in self.__dict__:
            raise AttributeError(
                f'{self._describe()}.add_persistent: cannot register a new '
                f'persistent value {name!r}: attribute exists')
        self._check_new_name('add_persistent', 'persistent value', name)
        _add_sorted(self._persistent, name)
        object.__setattr__(self, name, value)

    def register_persistent(self, name):
        """Make the existing attribute ``name`` a persistent value."""
        self._check_init_done('register_persistent')
        if name not in self.__dict__:
            raise AttributeError(
                f'{self._describe()}.register_persistent: cannot register '
                f'non-existent attribute {name!r} as a persistent value')
        self._check_new_name('register_persistent', 'persistent value',
                             name)
        _add_sorted(self._persistent, name)

    # -- the tree ------------------------------------------------------

    def _named_children(self):
        """Yield ``(name, child link)``; a plain Link has no children."""
        return iter(())

    def _share_children(self):
        """Replace the children of this fresh shallow copy by shared
        copies of them (for ``copy('share')``)."""

    def params(self, include_uninit=True):
        """Yield every parameter of this link and its descendants.

        Args:
            include_uninit (bool): also yield uninitialized parameters.
        """
        d = self.__dict__
        for name in self._params:
            param = d[name]
            if include_uninit or param.array is not None:
                yield param
        for _, child in self._named_children():
            yield from child.params(include_uninit)

    def namedparams(self, include_uninit=True):
        """Yield ``(path, parameter)`` pairs, paths like ``'/l1/W'``."""
        d = self.__dict__
        for name in self._params:
            param = d[name]
            if include_uninit or param.array is not None:
                yield '/' + name, param
        for name, child in self._named_children():
            prefix = '/' + name
            for path, param in child.namedparams(include_uninit):
                yield prefix + path, param

    def links(self, skipself=False):
        """Yield this link (unless ``skipself``) and all its descendants."""
        if not skipself:
            yield self
        for _, child in self._named_children():
            yield from child.links()

    def namedlinks(self, skipself=False):
        """Yield ``(path, link)`` pairs: ``'/'`` for this link, then
        ``'/l1'``, ``'/l1/sub'``, ..."""
        if not skipself:
            yield '/', self
        for name, child in self._named_children():
            prefix = '/' + name
            yield prefix, child
            for path, link in child.namedlinks(skipself=True):
                yield prefix + path, link

    def children(self):
        """Yield the direct child links."""
        for _, child in self._named_children():
            yield child

    def namedpersistents(self):
        """Yield ``(path, owner link, name)`` of every persistent value of
        this link and its descendants (registered with
        :meth:`add_persistent` or :meth:`register_persistent`): its value
        is ``getattr(owner, name)``, its path as in :meth:`namedparams`
        (``'/child/name'``)."""
        for path, link in self.namedlinks():
            prefix = path.rstrip('/')
            for name in link._persistent:
                yield f'{prefix}/{name}', link, name

    # -- calling -------------------------------------------------------

    def __call__(self, *args, **kwargs):
        try:
            forward = self.forward
        except AttributeError:
            if hasattr(type(self), 'forward'):
                raise
            raise TypeError(
                f'{type(self).__name__} cannot be called: a link is called '
                f'through its forward method, which this class does not '
                f'define') from None
        try:
            if self._hooked:
                return link_hook.call_with_hooks(self, forward, args,
                                                 kwargs)
            return forward(*args, **kwargs)
        except (AttributeError, TypeError) as error:
            # None, a list or a scalar read as an array: say so, naming
            # the link, as FunctionNode.apply does for a function.
            clear = type_check.bad_input_error(
                type(self).__name__,
                tuple(inspect.signature(forward).parameters.values()), args,
                kwargs, error)
            if clear is None:
                _note_link_path(error, self)
                raise
            _note_link_path(clear, self)
            raise clear from error
        except Exception as error:
            _note_link_path(error, self)
            raise

    @property
    def local_link_hooks(self):
        """The dict ``name -> hook`` of the hooks of this link only."""
        hooks = self._local_link_hooks
        if hooks is None:
            hooks = self.__dict__['_local_link_hooks'] = {}
        # The dict may be filled by the caller: calls take the hooked path.
        self.__dict__['_hooked'] = True
        return hooks

    def add_hook(self, hook, name=None):
        """Register ``hook`` (a LinkHook) on this link; returns self.

        Args:
            hook: the hook.
            name (str): its name here; ``hook.name`` by default.
        """
        if not isinstance(hook, link_hook.LinkHook):
            raise TypeError(
                f'{self._describe()}.add_hook: expected a LinkHook, got '
                f'{type(hook).__name__}')
        if name is None:
            name = hook.name
        hooks = self.local_link_hooks
        if name in hooks:
            raise KeyError(f'{self._describe()}.add_hook: a hook named '
                           f'{name!r} is already registered')
        hooks[name] = hook
        hook.added(self)
        return self

    def delete_hook(self, name):
        """Unregister the local hook ``name``."""
        hooks = self.local_link_hooks
        if name not in hooks:
            raise KeyError(f'{self._describe()}.delete_hook: no hook named '
                           f'{name!r} is registered')
        hook = hooks.pop(name)
        if not hooks:
            self.__dict__.pop('_hooked', None)
        hook.deleted(self)

    # -- copies --------------------------------------------------------

    def copy(self, mode='share'):
        """A copy of this link and its descendants.

        Args:
            mode (str): ``'share'``: the copies' parameters are new
                Parameter objects sharing the arrays (no array is copied,
                gradients are not kept); ``'copy'``: everything is deep
                copied; ``'init'``: deep copied, then the initialized
                parameters are filled anew by their initializers.

        The copy of the root has no name in ``'share'`` mode, as in Chainer.
        """
        _check_mode('Link.copy', mode)
        if mode != 'share':
            copied = copy_module.deepcopy(self)
            if mode == 'init':
                for param in copied.params(include_uninit=False):
                    param.initialize(param.shape)
            return copied
        copied = copy_module.copy(self)
        d = copied.__dict__
        d['_params'] = dict(self._params)
        d['_persistent'] = dict(self._persistent)
        if self._local_link_hooks is not None:
            d['_local_link_hooks'] = dict(self._local_link_hooks)
        d['name'] = None
        for name in copied._params:
            d[name] = _shared_parameter(d[name])
        copied._share_children()
        return copied

    def repeat(self, n_repeat, mode='init'):
        """A :class:`~kusari.links.Sequential` of ``n_repeat`` copies of
        this link (made by :meth:`copy` with ``mode``)."""
        if isinstance(n_repeat, bool) or not isinstance(
                n_repeat, (int, numpy.integer)):
            raise TypeError(
                f'{self._describe()}.repeat: n_repeat must be an int, got '
                f'{type(n_repeat).__name__}')
        _check_mode(f'{self._describe()}.repeat', mode)
        return _sequential_type(*(self.copy(mode) for _ in range(n_repeat)))

    def _matched_params(self, caller, link):
        """Pairs ``(path, own parameter, link's parameter)``; raises naming
        the path if ``link`` lacks one, before anything changes."""
        if not isinstance(link, Link):
            raise TypeError(
                f'{self._describe()}.{caller}: expected a Link, got '
                f'{type(link).__name__}')
        theirs = dict(link.namedparams())
        pairs = []
        for path, param in self.namedparams():
            other = theirs.get(path)
            if other is None:  # KeyError, as Chainer raises
                raise KeyError(
                    f'{self._describe()}.{caller}: the given '
                    f'{type(link).__name__} has no parameter {path}')
            if param.array is not None and other.array is not None and \
                    param.shape != other.shape:
                raise ValueError(
                    f'{self._describe()}.{caller}: parameter {path} has '
                    f'shape {param.shape} here and {other.shape} in the '
                    f'given link')
            pairs.append((path, param, other))
        return pairs

    def copyparams(self, link, copy_persistent=True):
        """Copy the parameter arrays (and persistent values) of ``link``,
        a link of the same structure, into this one's, in place."""
        pairs = self._matched_params('copyparams', link)
        persistents = []
        if copy_persistent:
            theirs = {path: (owner, name)
                      for path, owner, name in link.namedpersistents()}
            for path, owner, name in self.namedpersistents():
                if path not in theirs:
                    raise KeyError(
                        f'{self._describe()}.copyparams: the given '
                        f'{type(link).__name__} has no persistent value '
                        f'{path}')
                src_owner, src_name = theirs[path]
                persistents.append(
                    (path, owner, name, src_owner.__dict__[src_name]))
            for path, owner, name, value in persistents:
                mine = owner.__dict__[name]
                if backend.is_array_supported(mine) and \
                        backend.is_array_supported(value) and \
                        mine.shape != value.shape:
                    raise ValueError(
                        f'{self._describe()}.copyparams: persistent value '
                        f'{path} has shape {mine.shape} here and '
                        f'{value.shape} in the given link')
        for _, param, other in pairs:
            param.copydata(other)
        for _, owner, name, value in persistents:
            mine = owner.__dict__[name]
            if backend.is_array_supported(mine) and \
                    backend.is_array_supported(value):
                backend.copyto(mine, value)
            else:
                owner.__dict__[name] = copy_module.deepcopy(value)

    def addgrads(self, link):
        """Add the gradients of ``link``'s parameters to this one's."""
        for _, param, other in self._matched_params('addgrads', link):
            if param.array is None and other.array is not None:
                param.initialize(other.shape)
            param.addgrad(other)

    # -- gradients and updates -----------------------------------------

    def cleargrads(self):
        """Set every parameter's gradient to None."""
        for param in self.params():
            param.cleargrad()

    def zerograds(self):
        """Fill every parameter's gradient with zeros (deprecated: use
        :meth:`cleargrads`, which is cheaper)."""
        warnings.warn('Link.zerograds is deprecated; use Link.cleargrads '
                      'instead', DeprecationWarning, stacklevel=2)
        with warnings.catch_warnings():
            # One warning for the call, not one per parameter.
            warnings.simplefilter('ignore', DeprecationWarning)
            for param in self.params():
                param.zerograd()

    def enable_update(self):
        """Let optimizers update every parameter of this link."""
        self._set_update_enabled(True)

    def disable_update(self):
        """Keep optimizers from updating any parameter of this link."""
        self._set_update_enabled(False)

    def _set_update_enabled(self, enabled):
        for param in self.params():
            rule = param.update_rule
            if rule is not None:
                rule.enabled = enabled

    @property
    def update_enabled(self):
        """Whether some parameter has an enabled update rule."""
        return any(param.update_rule is not None and param.update_rule.enabled
                   for param in self.params())

    def count_params(self):
        """The number of parameter elements; uninitialized parameters are
        left out, with a warning naming them."""
        total = 0
        for path, param in self.namedparams():
            if param.array is None:
                warnings.warn(
                    f'Parameter {path!r} has not been initialized, so the '
                    f'count does not include it', stacklevel=2)
            else:
                total += param.size
        return total

    # -- serialization and devices -------------------------------------

    def serialize(self, serializer):
        """Save or load parameters, persistent values and children.

        An uninitialized parameter is saved as None; loading an array into
        one initializes it with the stored shape.
        """
        d = self.__dict__
        for name in self._params:
            param = d[name]
            loaded = serializer(name, param.array)
            if param.array is None and loaded is not None:
                param.initialize(loaded.shape)
                backend.copyto(param.array, loaded)
        for name in self._persistent:
            value = serializer(name, d[name])
            if d[name] is None and backend.is_array_supported(value):
                # Loaded into a value not made yet (a lazy link's
                # statistics): the file's array joins this link's device.
                value = self.device.send(value)
            d[name] = value
        for name, child in self._named_children():
            child.serialize(serializer[name])

    def device_resident_accept(self, visitor):
        """Hand the visitor this link, its parameters (with gradients),
        its persistent arrays, and its children; persistent scalars stay.
        """
        super().device_resident_accept(visitor)
        d = self.__dict__
        for name in self._params:
            visitor.visit_variable(d[name])
        for name in self._persistent:
            value = d[name]
            if backend.is_array_supported(value):
                d[name] = visitor.visit_array(value)
        for _, child in self._named_children():
            child.device_resident_accept(visitor)

    @classmethod
    def from_params(cls, *args, **kwargs):
        """Build a link from existing parameter arrays; layers that support
        it override this."""
        raise NotImplementedError(
            f'{cls.__name__}.from_params: this link cannot be built from '
            f'parameters')

    # -- text ----------------------------------------------------------

    @property
    def printable_specs(self):
        """Yield ``(name, value)`` pairs shown in the link's text; layers
        override it (``Linear`` shows ``in_size``, ``out_size``, ...)."""
        return iter(())

    def _printable_children(self):
        return self._named_children()

    def __str__(self):
        specs = ', '.join(f'{key}={value}'
                          for key, value in self.printable_specs)
        body = ''.join(_indent(f'({name}): {item},')
                       for name, item in self._printable_children())
        if not body:
            return f'{type(self).__name__}({specs})'
        if specs:
            specs += ','
        return f'{type(self).__name__}({specs}\n{body})'

    def __repr__(self):
        return self.__str__()


class Chain(Link):
    """A link holding child links by name.

    Child links are registered by assigning them to attributes inside
    ``with self.init_scope():`` (or with :meth:`add_link`); their
    parameters become parameters of the chain, under ``/name/...``.

    Args:
        links: ``name=link`` pairs to register.
    """

    def __init__(self, **links):
        super().__init__()
        self._children = {}
        for name, link in links.items():
            self.add_link(name, link)

    def __getitem__(self, name):
        """The attribute ``name`` (a child link, usually)."""
        return getattr(self, name)

    def __setattr__(self, name, value):
        if self._within_init_scope and isinstance(value, Link):
            self._register_link('init_scope', name, value)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._children.pop(name, None)
        super().__delattr__(name)

    def _registries(self):
        return super()._registries() + ((self._children, 'child link'),)

    def _register_link(self, caller, name, link):
        if name in self.__dict__:
            raise AttributeError(
                f'{self._describe()}.{caller}: cannot register a new link '
                f'{name!r}: attribute exists')
        self._check_new_name(caller, 'child link', name)
        link.name = name
        _add_sorted(self._children, name)

    def add_link(self, name, link):
        """Register ``link`` as the child ``name``."""
        self._check_init_done('add_link')
        if not isinstance(link, Link):
            raise TypeError(
                f'{self._describe()}.add_link: expected a Link for child '
                f'{name!r}, got {type(link).__name__}')
        with self.init_scope():
            setattr(self, name, link)

    def _named_children(self):
        d = self.__dict__
        for name in self._children:
            yield name, d[name]

    def _share_children(self):
        d = self.__dict__
        self._children = dict(self._children)
        for name in self._children:
            child = d[name].copy('share')
            child.name = name
            d[name] = child


class ChainList(Link, abc.MutableSequence):
    """A link holding child links in a list (named ``'0'``, ``'1'``, ...).

    It supports the list interface: indexing, ``append``, ``insert``,
    ``del``, ``len``, iteration.

    Args:
        links: the initial child links.
    """

    def __init__(self, *links):
        super().__init__()
        self._children = []
        for link in links:
            self.add_link(link)

    def __setattr__(self, name, value):
        if self._within_init_scope and isinstance(value, Link):
            raise TypeError(
                f'{self._describe()}: cannot register link {name!r} by '
                f'attribute assignment in a ChainList; use add_link or '
                f'append')
        super().__setattr__(name, value)

    def _checked_link(self, caller, link):
        if not isinstance(link, Link):
            raise TypeError(
                f'{self._describe()}.{caller}: expected a Link, got '
                f'{type(link).__name__}')
        return link

    def _rename(self):
        for index, link in enumerate(self._children):
            link.name = str(index)

    def add_link(self, link):
        """Append ``link`` as the last child."""
        self._check_init_done('add_link')
        self._checked_link('add_link', link)
        link.name = str(len(self._children))
        self._children.append(link)

    append = add_link

    def insert(self, index, link):
        """Insert ``link`` before position ``index``."""
        self._children.insert(index, self._checked_link('insert', link))
        self._rename()

    def __getitem__(self, index):
        """The child at ``index``; a list of them for a slice."""
        return self._children[index]

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            value = [self._checked_link('__setitem__', link)
                     for link in value]
        else:
            self._checked_link('__setitem__', value)
        self._children[index] = value
        self._rename()

    def __delitem__(self, index):
        del self._children[index]
        self._rename()

    def __len__(self):
        return len(self._children)

    def __iter__(self):
        return iter(self._children)

    def _named_children(self):
        for index, link in enumerate(self._children):
            yield str(index), link

    def _share_children(self):
        self._children = [link.copy('share') for link in self._children]
        self._rename()
