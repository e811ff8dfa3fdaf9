"""Chainer's module paths, served by Kusari's modules.

``import chainer.functions.activation.relu`` must give the very module
object that ``kusari.autograd.functions.activation.relu`` is, so classes and
module state are shared. A meta-path finder maps each aliased prefix onto
its Kusari module and registers the same object under both names.
"""
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types

# Chainer path -> Kusari path; a path covers its submodules too, and the
# longest matching path wins.
ALIASES = {
    'chainer._backprop_utils': 'kusari.autograd.backprop_step',
    'chainer.backend': 'kusari.array.backend',
    'chainer.backends.cuda': 'kusari.array.cuda',
    'chainer.computational_graph': 'kusari.autograd.computational_graph',
    'chainer.cuda': 'kusari.array.cuda',
    'chainer.configuration': 'kusari.array.configuration',
    'chainer.dataset': 'kusari.datasets',
    'chainer.dataset.tabular.from_data':
        'kusari.datasets.tabular._from_data',
    'chainer.datasets': 'kusari.datasets',
    'chainer.device_resident': 'kusari.array.device_resident',
    'chainer.distribution': 'kusari.distributions.distribution',
    'chainer.distributions': 'kusari.distributions',
    'chainer.exporters': 'kusari.links.exporters',
    'chainer.exporters.caffe': 'kusari.links.layers.caffe.export',
    'chainer.function': 'kusari.autograd.function',
    'chainer.function_hook': 'kusari.autograd.function_hook',
    'chainer.function_hooks': 'kusari.autograd.function_hooks',
    'chainer.function_node': 'kusari.autograd.function_node',
    'chainer.functions': 'kusari.autograd.functions',
    'chainer.functions.rnn.lstm': 'kusari.autograd.functions.activation.lstm',
    'chainer.functions.rnn.n_step_gru':
        'kusari.autograd.functions.connection.n_step_gru',
    'chainer.functions.rnn.n_step_lstm':
        'kusari.autograd.functions.connection.n_step_lstm',
    'chainer.functions.rnn.n_step_rnn':
        'kusari.autograd.functions.connection.n_step_rnn',
    'chainer.functions.rnn.slstm':
        'kusari.autograd.functions.activation.slstm',
    'chainer.functions.rnn.tree_lstm':
        'kusari.autograd.functions.activation.tree_lstm',
    'chainer.gradient_check': 'kusari.autograd.gradient_check',
    'chainer.graph_optimizations': 'kusari.autograd.graph_optimizations',
    'chainer.initializer': 'kusari.array.initializers',
    'chainer.initializers': 'kusari.array.initializers',
    'chainer.link': 'kusari.links.link',
    'chainer.link_hook': 'kusari.links.link_hook',
    'chainer.link_hooks': 'kusari.links.link_hooks',
    'chainer.links': 'kusari.links.layers',
    'chainer.links.activation.simplified_dropconnect':
        'kusari.links.layers.connection.simplified_dropconnect',
    'chainer.links.connection.inceptionbn':
        'kusari.links.layers.connection.inception_bn',
    'chainer.iterators': 'kusari.datasets.iterators',
    'chainer.optimizer': 'kusari.training.optimizer',
    'chainer.optimizer_hooks': 'kusari.training.optimizer_hooks',
    'chainer.optimizers': 'kusari.training.optimizers',
    'chainer.reporter': 'kusari.links.reporter',
    'chainer.sequential': 'kusari.links.sequential',
    'chainer.serializer': 'kusari.serializers.serializer',
    'chainer.serializers': 'kusari.serializers',
    'chainer.training': 'kusari.training',
    'chainer.training.util': 'kusari.training.trigger',
    'chainer.testing.array': 'kusari.autograd.testing.array',
    'chainer.testing.attr': 'kusari.autograd.testing.attr',
    'chainer.testing.backend': 'kusari.autograd.testing.backend',
    'chainer.testing.condition': 'kusari.autograd.testing.condition',
    'chainer.testing.distribution_test': 'kusari.distributions.testing',
    'chainer.testing.function_link':
        'kusari.autograd.testing.function_test_case',
    'chainer.testing.helper': 'kusari.autograd.testing.helper',
    'chainer.testing.matrix': 'kusari.autograd.testing.matrix',
    'chainer.testing.parameterized': 'kusari.autograd.testing.parameterized',
    'chainer.testing.random': 'kusari.autograd.testing.random',
    'chainer.testing.serializer': 'kusari.serializers.testing',
    'chainer.testing.training': 'kusari.training.testing',
    'chainer.testing.unary_math_function_test':
        'kusari.autograd.testing.unary_math_function',
    'chainer.utils.array': 'kusari.autograd.utils.array',
    'chainer.utils.conv': 'kusari.autograd.utils.conv',
    'chainer.utils.conv_nd': 'kusari.autograd.utils.conv_nd',
    'chainer.utils.precision': 'kusari.autograd.utils.precision',
    'chainer.utils.sparse': 'kusari.autograd.utils.sparse',
    'chainer.utils.type_check': 'kusari.autograd.utils.type_check',
    'chainer.utils.walker_alias': 'kusari.autograd.utils.walker_alias',
    'chainer.variable': 'kusari.autograd.variable',
}
# Chainer keeps each learning-rate shift in a module of its own; Kusari keeps
# them together.
ALIASES.update({
    f'chainer.training.extensions.{shift}_shift':
        'kusari.training.extensions.shifts'
    for shift in ('exponential', 'inverse', 'linear', 'multistep',
                  'polynomial', 'step', 'warmup')})
# Chainer packages whose modules Kusari keeps elsewhere: each is an empty
# package here, and its modules are aliased one by one above.
GROUPS = {
    'chainer.functions.rnn':
        'Recurrent functions (kept in the activation and connection '
        'families).',
}


def _longest_first(aliases):
    return tuple(sorted(aliases.items(), key=lambda item: -len(item[0])))


_LONGEST_FIRST = _longest_first(ALIASES)


def target_of(fullname, prefixes=_LONGEST_FIRST):
    """The Kusari module name serving ``fullname``, or None; ``prefixes``
    are the ``(alias, target)`` pairs, longest first (Chainer's by
    default)."""
    for prefix, target in prefixes:
        if fullname == prefix:
            return target
        if fullname.startswith(prefix + '.'):
            return target + fullname[len(prefix):]
    return None


def _register_imported_submodules(alias, package, prefixes):
    """Register under ``alias`` the public submodules ``package`` imported
    itself, as importing a Chainer package does (``import
    chainer.serializers`` puts ``chainer.serializers.hdf5`` in
    ``sys.modules``)."""
    for name, value in list(vars(package).items()):
        if name.startswith('_') or not isinstance(value, types.ModuleType):
            continue
        submodule = f'{alias}.{name}'
        if target_of(submodule, prefixes) == value.__name__ \
                and submodule not in sys.modules:
            sys.modules[submodule] = value
            if hasattr(value, '__path__'):
                _keep_shadowed_names(submodule, value, prefixes)
    _keep_shadowed_names(alias, package, prefixes)


def _keep_shadowed_names(alias, package, prefixes):
    """Register the children of ``alias`` whose name ``package`` binds to
    something else (``chainer.dataset.tabular.from_data`` is the module
    ``tabular._from_data``, ``tabular.from_data`` the function): a later
    import of one finds it registered, so the import system does not bind
    the module over the package's name."""
    for submodule, target in prefixes:
        parent, _, name = submodule.rpartition('.')
        if parent == alias and target in sys.modules and not isinstance(
                vars(package).get(name, sys.modules[target]),
                types.ModuleType):
            sys.modules.setdefault(submodule, sys.modules[target])


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target, prefixes):
        self.target = target
        self.prefixes = prefixes

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self.kusari_spec = module.__spec__
        return module

    def exec_module(self, module):
        """The Kusari module already ran when it was imported; the import
        system gave it the alias's spec, so give its own back."""
        alias = module.__spec__.name
        module.__spec__ = self.kusari_spec
        if hasattr(module, '__path__'):
            _register_imported_submodules(alias, module, self.prefixes)


class _GroupLoader(importlib.abc.Loader):
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        # Its modules are bound at once, as a real package's __init__
        # would: chainer.functions.rnn.n_step_lstm after importing it.
        module.__doc__ = GROUPS[module.__name__]
        for alias in ALIASES:
            if alias.rpartition('.')[0] == module.__name__:
                importlib.import_module(alias)


class _AliasFinder(importlib.abc.MetaPathFinder):
    """Serves the paths of one alias table (None: Chainer's, with its
    groups)."""

    def __init__(self, aliases=None):
        self.aliases = aliases
        self._prefixes = _LONGEST_FIRST if aliases is None else \
            _longest_first(aliases)
        self._groups = GROUPS if aliases is None else {}

    def find_spec(self, fullname, path=None, target=None):
        if fullname in self._groups:
            return importlib.machinery.ModuleSpec(
                fullname, _GroupLoader(), is_package=True)
        kusari_name = target_of(fullname, self._prefixes)
        if kusari_name is None:
            return None
        module = sys.modules.get(kusari_name)
        if module is not None:
            is_package = hasattr(module, '__path__')
        else:
            spec = importlib.util.find_spec(kusari_name)
            if spec is None:
                return None
            is_package = spec.submodule_search_locations is not None
        return importlib.machinery.ModuleSpec(
            fullname, _AliasLoader(kusari_name, self._prefixes),
            is_package=is_package)


def install(aliases=None):
    """Put the alias finder of ``aliases`` (a dict like :data:`ALIASES`;
    None for Chainer's) first on ``sys.meta_path`` (once per table)."""
    if not any(isinstance(f, _AliasFinder) and f.aliases is aliases
               for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder(aliases))
