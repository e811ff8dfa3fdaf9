import re
import weakref

import numpy
import pytest
from hypothesis import given, settings, strategies as st

from kusari.autograd import FunctionNode
from kusari.autograd import Variable
from kusari.autograd import VariableNode
from kusari.autograd import computational_graph as c

NODE = re.compile(r'(\d+) \[((?:\w+="(?:[^"\\]|\\.)*",?)+)\];')
EDGE = re.compile(r'(\d+) -> (\d+);')
ATTRIBUTE = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def parse_dot(text):
    """Node attributes by id and edges (pairs of ids) of a dot dump; fails
    on anything that is not a statement of the two kinds."""
    match = re.fullmatch(r'digraph graphname\{rankdir=(\w\w);(.*)\}', text,
                         re.S)
    assert match, text
    body = match.group(2)
    nodes = {}
    edges = []
    position = 0
    while position < len(body):
        node = NODE.match(body, position)
        if node:
            nodes[node.group(1)] = dict(ATTRIBUTE.findall(node.group(2)))
            position = node.end()
            continue
        edge = EDGE.match(body, position)
        assert edge, body[position:]
        edges.append(edge.groups())
        position = edge.end()
    for head, tail in edges:
        assert head in nodes and tail in nodes
    return match.group(1), nodes, edges


def polynomial():
    x = Variable(numpy.array([5], dtype=numpy.float32), name='x')
    return x, x ** 2 - 2 * x + 1


def test_polynomial_graph_counts():
    x, y = polynomial()
    g = c.build_computational_graph([y])
    variables = [n for n in g.nodes if isinstance(n, VariableNode)]
    functions = [n for n in g.nodes if isinstance(n, FunctionNode)]
    # x, x**2, 2*x, x**2 - 2*x, y; and **, *, -, +.
    assert len(variables) == 5 and len(functions) == 4
    assert len(g.nodes) == 9 and len(g.edges) == 9
    assert x.node in variables and y.node in variables
    assert (y.creator_node, y.node) in g.edges


def test_dump_is_dot_with_default_styles():
    x, y = polynomial()
    rankdir, nodes, edges = parse_dot(c.build_computational_graph(
        [y]).dump())
    assert rankdir == 'TB'
    assert len(nodes) == 9 and len(edges) == 9
    variables = [a for a in nodes.values() if a['shape'] == 'octagon']
    functions = [a for a in nodes.values() if a['shape'] == 'record']
    assert len(variables) == 5 and len(functions) == 4
    assert all(a['fillcolor'] == '#E0E0E0' and a['style'] == 'filled'
               for a in variables)
    assert all(a['fillcolor'] == '#6495ED' for a in functions)
    assert nodes[str(id(x.node))]['label'] == 'x: (1), float32'
    assert nodes[str(id(y.node))]['label'] == '(1), float32'
    assert nodes[str(id(y.creator_node))]['label'] == y.creator_node.label


def test_plain_and_custom_styles_rankdir_and_names():
    x, y = polynomial()
    text = c.build_computational_graph(
        [y], variable_style=None, function_style={'color': 'red'},
        rankdir='LR', show_name=False).dump()
    rankdir, nodes, _ = parse_dot(text)
    assert rankdir == 'LR'
    assert nodes[str(id(x.node))] == {'label': '(1), float32',
                                      'shape': 'oval'}
    assert nodes[str(id(y.creator_node))] == {
        'label': y.creator_node.label, 'shape': 'box', 'color': 'red'}
    _, nodes, _ = parse_dot(c.build_computational_graph(
        [y], variable_style={'label': 'v', 'shape': 'box'}).dump())
    assert nodes[str(id(x.node))] == {'label': 'v', 'shape': 'box'}


def test_remove_variable_links_functions_directly():
    x, y = polynomial()
    g = c.build_computational_graph([y], remove_variable=True)
    assert len(g.nodes) == 9 and len(g.edges) == 9
    _, nodes, edges = parse_dot(g.dump())
    add = y.creator_node
    sub = add.inputs[0].creator_node
    power, mul = [n.creator_node for n in sub.inputs]
    ids = [str(id(f)) for f in (add, sub, power, mul)]
    assert set(nodes) == set(ids)
    assert sorted(edges) == sorted([
        (ids[1], ids[0]), (ids[2], ids[1]), (ids[3], ids[1])])


def test_outputs_may_be_nodes_or_a_single_variable():
    x, y = polynomial()
    for outputs in (y, [y.node], (y.node,)):
        assert len(c.build_computational_graph(outputs).nodes) == 9
    g = c.build_computational_graph([y.creator_node])
    assert len(g.nodes) == 8 and y.node not in g.nodes


class Split(FunctionNode):
    def forward(self, inputs):
        x, = inputs
        return x[:1].copy(), x[1:].copy()

    def backward(self, indexes, grad_outputs):
        raise AssertionError('not called')


def test_only_reached_outputs_of_a_function_are_drawn():
    x = Variable(numpy.arange(3, dtype=numpy.float32))
    a, b = Split().apply((x,))
    assert len(c.build_computational_graph([a]).nodes) == 3
    g = c.build_computational_graph([a, b])
    assert len(g.nodes) == 4 and len(g.edges) == 3


def test_repeated_input_gives_one_edge():
    x = Variable(numpy.ones(2, dtype=numpy.float32))
    g = c.build_computational_graph([x * x])
    assert len(g.nodes) == 3 and len(g.edges) == 2


def test_array_inputs_appear_as_variable_nodes():
    x = Variable(numpy.ones(2, dtype=numpy.float32))
    y = x * numpy.full(2, 3, dtype=numpy.float32)
    g = c.build_computational_graph([y])
    assert sum(isinstance(n, VariableNode) for n in g.nodes) == 3


def test_unchained_function_has_no_inputs_drawn():
    x, y = polynomial()
    y.creator_node.unchain()
    g = c.build_computational_graph([y])
    assert len(g.nodes) == 1 and g.edges == []


def test_labels_are_quoted():
    x = Variable(numpy.ones(1, dtype=numpy.float32), name='a"b\\')
    _, nodes, _ = parse_dot(c.build_computational_graph([x * 2]).dump())
    assert nodes[str(id(x.node))]['label'] == 'a\\"b\\\\: (1), float32'


def test_errors():
    x, y = polynomial()
    with pytest.raises(ValueError, match='rankdir'):
        c.build_computational_graph([y], rankdir='XY')
    with pytest.raises(ValueError, match='remove_split'):
        c.build_computational_graph([y], remove_split=False)
    with pytest.raises(TypeError, match='int'):
        c.build_computational_graph([y, 3])
    with pytest.raises(TypeError, match='variable_style'):
        c.build_computational_graph([y], variable_style='fancy')
    with pytest.raises(NotImplementedError, match='dot'):
        c.build_computational_graph([y]).dump('png')


def test_graph_does_not_keep_the_output_alive_after_dump():
    x, y = polynomial()
    ref = weakref.ref(y)
    c.build_computational_graph([y]).dump()
    del y
    assert ref() is None


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=12))
def test_chain_of_n_functions(n):
    x = Variable(numpy.ones(3, dtype=numpy.float32))
    y = x
    for _ in range(n):
        y = y * 2
    g = c.build_computational_graph([y])
    assert len(g.nodes) == 2 * n + 1 and len(g.edges) == 2 * n
    _, nodes, edges = parse_dot(g.dump())
    assert len(nodes) == 2 * n + 1 and len(edges) == 2 * n
