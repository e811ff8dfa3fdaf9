"""Drawings of the computational graph.

:func:`build_computational_graph` collects the variable and function nodes
reachable backward from some outputs; :meth:`ComputationalGraph.dump` writes
them as Graphviz dot text, to render with ``dot -Tpng``.
"""
from kusari.autograd.function_node import FunctionNode
from kusari.autograd.variable import Variable
from kusari.autograd.variable import VariableNode

_RANKDIRS = ('TB', 'BT', 'LR', 'RL')
_COLORED_STYLES = {
    'variable': {'shape': 'octagon', 'fillcolor': '#E0E0E0',
                 'style': 'filled'},
    'function': {'shape': 'record', 'fillcolor': '#6495ED',
                 'style': 'filled'},
}
_PLAIN_SHAPES = {'variable': 'oval', 'function': 'box'}


def _resolve_style(style, kind):
    """The dot attributes of one kind of node from a style argument:
    ``'default'`` (colored), None (plain) or a dict of attributes."""
    if isinstance(style, str) and style == 'default':
        return dict(_COLORED_STYLES[kind])
    if style is None:
        return {'shape': _PLAIN_SHAPES[kind]}
    if isinstance(style, dict):
        return {'shape': _PLAIN_SHAPES[kind], **style}
    raise TypeError(f'build_computational_graph: {kind}_style must be '
                    f"'default', None or a dict of dot attributes, got "
                    f'{style!r}')


def _quote(value):
    text = str(value).replace('\\', '\\\\').replace('"', '\\"')
    return f'"{text}"'


class ComputationalGraph:
    """The nodes and edges of a computational graph, ready to dump.

    Args:
        nodes: VariableNodes and FunctionNodes.
        edges: pairs ``(head, tail)`` of nodes, in the direction of the
            forward computation.
        variable_style, function_style: dot attributes of each kind of
            node: ``'default'`` (filled octagons and records), None (plain
            ovals and boxes) or a dict (a ``'label'`` in it replaces the
            computed one).
        rankdir: the direction of the drawing: 'TB', 'BT', 'LR' or 'RL'.
        remove_variable: draw only functions, linked directly where a
            variable connects them.
        show_name: prefix variable labels with the variable's name.
    """

    def __init__(self, nodes, edges, variable_style='default',
                 function_style='default', rankdir='TB',
                 remove_variable=False, show_name=True):
        if rankdir not in _RANKDIRS:
            raise ValueError(f'ComputationalGraph: rankdir must be one of '
                             f'{", ".join(_RANKDIRS)}, got {rankdir!r}')
        self.nodes = nodes
        self.edges = edges
        self.variable_style = _resolve_style(variable_style, 'variable')
        self.function_style = _resolve_style(function_style, 'function')
        self.rankdir = rankdir
        self.remove_variable = remove_variable
        self.show_name = show_name

    def _label(self, node):
        if isinstance(node, VariableNode):
            if self.show_name and node.name is not None:
                return f'{node.name}: {node.label}'
            return node.label
        return node.label

    def _node_statement(self, node):
        style = self.variable_style if isinstance(node, VariableNode) \
            else self.function_style
        attributes = {'label': self._label(node), **style}
        body = ','.join(f'{key}={_quote(value)}'
                        for key, value in attributes.items())
        return f'{id(node)} [{body}];'

    def _drawn(self):
        """The nodes and edges to draw, with variables bypassed if asked."""
        if not self.remove_variable:
            return self.nodes, self.edges
        creators = {}
        for head, tail in self.edges:
            if isinstance(tail, VariableNode):
                creators.setdefault(id(tail), []).append(head)
        edges = {}
        for head, tail in self.edges:
            if isinstance(head, VariableNode):
                for creator in creators.get(id(head), ()):
                    edges[(id(creator), id(tail))] = (creator, tail)
        nodes = [n for n in self.nodes if not isinstance(n, VariableNode)]
        return nodes, list(edges.values())

    def _to_dot(self):
        nodes, edges = self._drawn()
        parts = [f'digraph graphname{{rankdir={self.rankdir};']
        parts.extend(self._node_statement(node) for node in nodes)
        parts.extend(f'{id(head)} -> {id(tail)};' for head, tail in edges)
        parts.append('}')
        return ''.join(parts)

    def dump(self, format='dot'):
        """The graph as text in ``format`` (only ``'dot'`` exists)."""
        if format != 'dot':
            raise NotImplementedError(
                f'ComputationalGraph.dump: only the dot format is '
                f'supported, got {format!r}')
        return self._to_dot()


def _as_graph_node(obj):
    if isinstance(obj, Variable):
        return obj.node
    if isinstance(obj, (VariableNode, FunctionNode)):
        return obj
    raise TypeError(f'build_computational_graph: every output must be a '
                    f'Variable, a VariableNode or a FunctionNode, got '
                    f'{type(obj).__name__}')


def build_computational_graph(outputs, remove_split=True,
                              variable_style='default',
                              function_style='default', rankdir='TB',
                              remove_variable=False, show_name=True):
    """The graph of everything backward-reachable from ``outputs``.

    From each variable node it follows the edge to its creator, from each
    function node the edges to its inputs. A function's outputs that no
    output reaches are not included.

    Args:
        outputs: a Variable, VariableNode or FunctionNode, or a sequence
            of them.
        remove_split: kept for compatibility; it must be True.
        variable_style, function_style, rankdir, remove_variable,
            show_name: how to draw, as :class:`ComputationalGraph` takes
            them.

    Returns:
        A :class:`ComputationalGraph` whose nodes are in the order found.
    """
    if not remove_split:
        raise ValueError('build_computational_graph: remove_split=False is '
                         'not supported (there are no Split nodes)')
    if isinstance(outputs, (Variable, VariableNode, FunctionNode)):
        outputs = (outputs,)
    pending = [_as_graph_node(obj) for obj in outputs]
    seen = set()
    nodes = []
    edges = {}
    while pending:
        node = pending.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        nodes.append(node)
        if isinstance(node, VariableNode):
            neighbours = () if node.creator_node is None \
                else ((node.creator_node, node),)
        else:
            neighbours = tuple((x, node) for x in node.inputs or ())
        for head, tail in neighbours:
            edges.setdefault((id(head), id(tail)), (head, tail))
            pending.append(head)
    return ComputationalGraph(nodes, list(edges.values()), variable_style,
                              function_style, rankdir, remove_variable,
                              show_name)
