"""Saving the computational graph of a reported variable."""
import os
import shutil
import subprocess

from kusari.array import configuration
from kusari.autograd import computational_graph
from kusari.autograd import variable
from kusari.serializers import atomic
from kusari.training import extension
from kusari.training.extensions import _templates

_VARIABLE_STYLE = {'shape': 'octagon', 'fillcolor': '#E0E0E0',
                   'style': 'filled'}
_FUNCTION_STYLE = {'shape': 'record', 'fillcolor': '#6495ED',
                   'style': 'filled'}


def is_graphviz_available():
    """Whether Graphviz's ``dot`` command is on the PATH (then
    :class:`DumpGraph` also renders its graph as a PNG image)."""
    return shutil.which('dot') is not None


class DumpGraph(extension.Extension):
    """Trainer extension that writes the graph of a reported variable as a
    Graphviz dot file, once, at the first iteration that reports it.

    Until then it keeps graphs on report (``config.keep_graph_on_report``),
    which it restores afterwards. Where Graphviz is installed, the graph is
    also rendered beside the file as a PNG image (``cg.png``).

    Args:
        root_name (str): Key of the variable in the observation (e.g.
            ``'main/loss'``).
        filename (str): Name of the file in ``trainer.out`` (default
            ``'cg.dot'``).
        variable_style (dict): Dot attributes of variable nodes.
        function_style (dict): Dot attributes of function nodes.
    """

    default_name = 'dump_graph'

    def __init__(self, root_name, filename=None, variable_style=None,
                 function_style=None, **kwargs):
        if 'out_name' in kwargs:
            if filename is not None:
                raise ValueError('DumpGraph: give filename or out_name '
                                 '(its old name), not both')
            filename = kwargs.pop('out_name')
        extension.check_no_removed_arguments('DumpGraph', kwargs)
        self._root_name = root_name
        self._filename = 'cg.dot' if filename is None else filename
        self._variable_style = (_VARIABLE_STYLE if variable_style is None
                                else variable_style)
        self._function_style = (_FUNCTION_STYLE if function_style is None
                                else function_style)
        self._original_flag = None
        self._dumped = False

    def trigger(self, trainer):
        return not self._dumped

    def initialize(self, trainer):
        # Temporary files of a write that a killed run left go first.
        _templates.remove_abandoned(trainer.out, self._filename)
        if not self._dumped:
            self._original_flag = configuration.config.keep_graph_on_report
            configuration.config.keep_graph_on_report = True

    def __call__(self, trainer):
        if self._dumped:
            return
        value = trainer.observation.get(self._root_name)
        if value is None:
            return
        if not isinstance(value, variable.Variable):
            raise TypeError(f'DumpGraph: the reported {self._root_name!r} '
                            f'must be a Variable, got '
                            f'{type(value).__name__}')
        graph = computational_graph.build_computational_graph(
            [value], variable_style=self._variable_style,
            function_style=self._function_style).dump()
        os.makedirs(trainer.out, exist_ok=True)
        path = os.path.join(trainer.out, self._filename)
        with atomic.replacing(path) as temporary:
            with open(temporary, 'w') as stream:
                stream.write(graph)
        if is_graphviz_available():
            image = os.path.splitext(path)[0] + '.png'
            subprocess.run(['dot', '-Tpng', path, '-o', image], check=True)
        self._dumped = True
        self._restore_flag()

    def finalize(self):
        self._restore_flag()

    def _restore_flag(self):
        if self._original_flag is not None:
            configuration.config.keep_graph_on_report = self._original_flag
            self._original_flag = None

    def serialize(self, serializer):
        """Save or load whether the graph was written."""
        self._dumped = bool(serializer('_dumped', self._dumped))


dump_graph = DumpGraph
