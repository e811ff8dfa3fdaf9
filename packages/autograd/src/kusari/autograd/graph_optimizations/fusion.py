"""Elementwise chains of a static schedule fused into one loop each.

A node whose forward computes each output element from its inputs'
elements at the same position says how, in a small expression language,
with :meth:`~kusari.autograd.FunctionNode.elementwise_expression`. When
a schedule is about to be replayed, each run of at least
:data:`MIN_STEPS` consecutive such steps (one more for arrays of fewer
than :data:`SMALL` elements) whose outputs share one shape
and dtype (float32 or float64) becomes one step: one loop over that
shape computing every node's element in registers, compiled by Numba on
the CPU (the ``jit`` extra; nodes calling a function LLVM does not
vectorize, such as exp or tanh, stay steps there) or made a CuPy
ElementwiseKernel on the GPU. It writes only the arrays read outside the
run (by a later step or static code, by the backward, as the chain's
outputs): the others are never made. Where Numba is missing, the steps
run as recorded.

The loop does each node's float operations in its order and dtype, with
numbers in the arrays' dtype (Numba and CUDA without fast-math), so a
fused replay gives define-by-run's values up to the rounding of the math
functions (libm's ``tanh`` against NumPy's own, say). The fused nodes are
nodes every replay shares (their forward sets the same plain values on
every call: see :meth:`StaticSchedule.share_nodes`); what their forward
sets on them is set once, so their backward runs as it would unfused.

The language: the names ``x0``, ``x1``, ... (the node's inputs), numbers,
``+ - * /``, unary ``-``, one comparison (``< <= > >= == !=``),
``a if test else b``, and the functions of :data:`FUNCTIONS` (NumPy's,
``maximum`` and ``minimum`` propagating NaN as NumPy's do).
"""
import ast
import math

import numpy

from kusari.array import jit
from kusari.array import lazy_cupy

# Consecutive fusable steps that make a fused step (tests fuse single
# ones), one more below SMALL elements: there a loop's call costs more
# than a NumPy call (2 steps of 16 elements fused: 1.5 us slower), and
# only a run of 3 saves more calls than it makes.
MIN_STEPS = 2
SMALL = 4096
# Function -> its CUDA name (NumPy's name in Numba's loops).
FUNCTIONS = {
    'exp': 'exp', 'expm1': 'expm1', 'log': 'log', 'log2': 'log2',
    'log10': 'log10', 'log1p': 'log1p', 'sqrt': 'sqrt', 'square': 'square_',
    'sin': 'sin', 'cos': 'cos', 'tan': 'tan', 'arcsin': 'asin',
    'arccos': 'acos', 'arctan': 'atan', 'sinh': 'sinh', 'cosh': 'cosh',
    'tanh': 'tanh', 'absolute': 'fabs', 'maximum': 'maximum_',
    'minimum': 'minimum_'}
_ARITY = {'maximum': 2, 'minimum': 2}
# The functions a CPU loop may call: those LLVM vectorizes by itself. The
# others (exp, tanh, ...) are a libm call per element there, slower than
# NumPy's SIMD loops by more than fusion saves (3x on a chain of swish,
# tanh and exp over 256x1024 float32): on the CPU their nodes stay steps.
_CPU_FUNCTIONS = frozenset(['sqrt', 'square', 'absolute', 'maximum',
                            'minimum'])
_OPERATORS = {ast.Add: '+', ast.Sub: '-', ast.Mult: '*', ast.Div: '/',
              ast.Lt: '<', ast.LtE: '<=', ast.Gt: '>', ast.GtE: '>=',
              ast.Eq: '==', ast.NotEq: '!='}
_CUDA_PREAMBLE = '''
template <typename T> __device__ T maximum_(T a, T b) {
    return (a >= b || a != a) ? a : b;
}
template <typename T> __device__ T minimum_(T a, T b) {
    return (a <= b || a != a) ? a : b;
}
template <typename T> __device__ T square_(T a) { return a * a; }
'''
_FLOATS = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))
_kernels = {}  # source -> compiled loop or CuPy kernel


class _Writer:
    """Writes expressions as Python (Numba) or C (CUDA) code, the names
    of the node's inputs replaced and each number made a scalar argument
    of the loop (``k0``, ``k1``, ...: in the arrays' dtype)."""

    def __init__(self, cuda):
        self.cuda = cuda
        self.numbers = []
        self.functions = set()  # the functions called

    def write(self, expression, names):
        """``expression`` (a string) in code, its ``xi`` named
        ``names[i]``; ValueError where it is not in the language."""
        return self._code(ast.parse(expression, mode='eval').body, names)

    def _code(self, node, names):
        code = self._code
        kind = type(node)
        if kind is ast.Name and node.id.startswith('x') and \
                node.id[1:].isdigit() and int(node.id[1:]) < len(names):
            return names[int(node.id[1:])]
        if kind is ast.Constant and type(node.value) in (int, float):
            self.numbers.append(node.value)
            return f'k{len(self.numbers) - 1}'
        if kind is ast.BinOp and type(node.op) in _OPERATORS:
            return (f'({code(node.left, names)} {_OPERATORS[type(node.op)]} '
                    f'{code(node.right, names)})')
        if kind is ast.UnaryOp and type(node.op) is ast.USub:
            return f'(-{code(node.operand, names)})'
        if kind is ast.Compare and len(node.ops) == 1 and \
                type(node.ops[0]) in _OPERATORS:
            return (f'({code(node.left, names)} '
                    f'{_OPERATORS[type(node.ops[0])]} '
                    f'{code(node.comparators[0], names)})')
        if kind is ast.IfExp:
            test, a, b = [code(n, names)
                          for n in (node.test, node.body, node.orelse)]
            return f'({test} ? {a} : {b})' if self.cuda else \
                f'({a} if {test} else {b})'
        if kind is ast.Call and type(node.func) is ast.Name and \
                node.func.id in FUNCTIONS and not node.keywords and \
                len(node.args) == _ARITY.get(node.func.id, 1):
            name = node.func.id
            self.functions.add(name)
            args = ', '.join([code(a, names) for a in node.args])
            return f'{FUNCTIONS[name]}({args})' if self.cuda else \
                f'numpy.{name}({args})'
        raise ValueError(f'fusion: {ast.unparse(node)!r} is not in the '
                         f'expression language')


def fused_steps(schedule, steps, node_step, referenced, kept, reads):
    """``steps`` (a schedule's) with each run of fusable ones made one
    :class:`FusedStep`.

    Args:
        schedule: the :class:`StaticSchedule`.
        steps: its steps.
        node_step: the class of the steps that apply a node.
        referenced: the node steps static code reads the node of.
        kept: the slots read outside the steps (outputs, the backward's).
        reads: a function giving the slots a step reads.
    """
    cuda = schedule.xp is not numpy
    if not cuda and jit.numba_module() is None:
        return steps
    readers = {}  # slot -> the steps reading it
    for step in steps:
        for s in reads(step):
            readers.setdefault(s, []).append(step)
    result, run, run_type = [], [], None

    def close():
        if not run or len(run) < MIN_STEPS + (
                math.prod(run_type[0]) < SMALL):
            result.extend(run)
            return
        made = {step.out_slots[0] for step in run}
        read_by_run = [s for step in run for s in step.in_slots]
        in_slots = tuple(dict.fromkeys(
            [s for s in read_by_run if s not in made]))
        members = set(run)
        out_slots = tuple([
            s for s in [step.out_slots[0] for step in run]
            if s in kept or any([reader not in members
                                 for reader in readers.get(s, ())])])
        if not out_slots:  # (nothing reads them: left as recorded)
            result.extend(run)
            return
        for step in run:
            step.shared.__dict__.update(step.made)  # what forward sets
        result.append(FusedStep(run, in_slots, out_slots, *run_type, cuda))

    for step in steps:
        step_type = _fusable(schedule, step, node_step, referenced, cuda)
        if step_type is None or step_type != run_type:
            close()
            run = []
        run_type = step_type
        if step_type is None:
            result.append(step)
        else:
            run.append(step)
    close()
    return result


def _fusable(schedule, step, node_step, referenced, cuda):
    """The shape and dtype of the output of ``step`` if it can be fused
    (into a CUDA kernel if ``cuda``), else None."""
    if type(step) is not node_step or step.config is not None or \
            step.shared is None or len(step.out_slots) != 1 or \
            step in referenced:
        return None
    shape, dtype = schedule._slot_types[step.out_slots[0]]
    if dtype not in _FLOATS or any([
            schedule._slot_types[s][1] != dtype for s in step.in_slots]):
        return None
    expression = step.shared.elementwise_expression()
    if expression is None:
        return None
    for s in step.in_slots:  # (an elementwise node's inputs broadcast)
        in_shape = schedule._slot_types[s][0]
        if len(in_shape) > len(shape) or any([
                n not in (1, m) for n, m in zip(in_shape[::-1],
                                                shape[::-1])]):
            return None
    writer = _Writer(cuda)
    writer.write(expression, ['a'] * len(step.in_slots))
    if not cuda and not writer.functions <= _CPU_FUNCTIONS:
        return None
    return shape, dtype


class FusedStep:
    """Runs a run of elementwise node steps as one loop.

    Attributes:
        steps: the steps it replaces, in order.
        in_slots: the slots it reads; out_slots: the slots it writes.
    """

    config = None  # (what run() reads of a step)

    def __init__(self, steps, in_slots, out_slots, shape, dtype, cuda):
        self.steps = steps
        self.in_slots = in_slots
        self.out_slots = out_slots
        self.shape = shape
        self.dtype = dtype
        self.cuda = cuda
        writer = _Writer(cuda)
        inputs = [f'a{j}' for j in range(len(in_slots))]
        value = dict(zip(in_slots, inputs))
        lines = []
        for k, step in enumerate(steps):
            expression = writer.write(
                step.shared.elementwise_expression(),
                [value[s] for s in step.in_slots])
            value[step.out_slots[0]] = f'v{k}'
            lines.append(f'v{k} = {expression}')
        outputs = [(f'y{j}', value[s]) for j, s in enumerate(out_slots)]
        self.numbers = tuple([dtype.type(n) for n in writer.numbers])
        numbers = [f'k{j}' for j in range(len(self.numbers))]
        if cuda:
            self.source = ' '.join([f'T {line};' for line in lines] +
                                   [f'{y} = {v};' for y, v in outputs])
            self.params = (', '.join([f'T {n}' for n in inputs + numbers]),
                           ', '.join([f'T {y}' for y, _ in outputs]))
        else:
            self.source = _numba_source(inputs, outputs, numbers, lines,
                                        max(len(shape), 1))

    def __call__(self, table):
        for s, y in zip(self.out_slots,
                        _run(self, [table[s] for s in self.in_slots])):
            table[s] = y

    def __repr__(self):
        labels = ', '.join([step.template.label for step in self.steps])
        return (f'fused ({labels}): slots {list(self.in_slots)} -> '
                f'{list(self.out_slots)}')


def _numba_source(inputs, outputs, numbers, lines, ndim):
    """A Python function ``fused(inputs..., outputs..., numbers...)``
    looping over the ``ndim`` axes of its arrays (the inputs broadcast
    to the outputs' shape); ``outputs`` are (name, value) pairs."""
    index = ', '.join([f'i{d}' for d in range(ndim)])
    first = outputs[0][0]
    code = ['    ' * (d + 1) + f'for i{d} in range({first}.shape[{d}]):'
            for d in range(ndim)]
    body = '    ' * (ndim + 1)
    code += [f'{body}{a} = x_{a}[{index}]' for a in inputs]
    code += [body + line for line in lines]
    code += [f'{body}{y}[{index}] = {v}' for y, v in outputs]
    parameters = ', '.join([f'x_{a}' for a in inputs] +
                           [y for y, _ in outputs] + numbers)
    return f'def fused({parameters}):\n' + '\n'.join(code) + '\n'


def _run(step, xs):
    """The arrays of ``step``'s outputs from its input arrays ``xs``."""
    kernel = _kernels.get(step.source)
    shape, dtype = step.shape, step.dtype
    if not step.cuda:
        if kernel is None:
            kernel = _kernels[step.source] = jit.compile_function(
                step.source, 'fused')
        loop_shape = shape or (1,)
        ys = [numpy.empty(loop_shape, dtype) for _ in step.out_slots]
        kernel(*[x if x.shape == loop_shape else
                 numpy.broadcast_to(x, loop_shape) for x in xs], *ys,
               *step.numbers)
        return ys if shape else [y.reshape(()) for y in ys]
    cupy = lazy_cupy.require_cupy()
    if kernel is None:
        kernel = _kernels[step.source] = cupy.ElementwiseKernel(
            *step.params, step.source, 'kusari_fused',
            preamble=_CUDA_PREAMBLE)
    ys = [cupy.empty(shape, dtype) for _ in step.out_slots]
    kernel(*xs, *step.numbers, *ys)
    return ys
