"""An elementwise update rule written once, and the three programs made
from it: NumPy ufunc calls, a Numba loop and a CUDA kernel body.

A formula is a few lines of Python over single elements::

    m += (1 - beta1) * (grad - m)
    v += (1 - beta2) * (grad * grad - v)
    step = alpha_t / (sqrt(vhat if amsgrad else v) + eps)
    if adabound:
        step = clip(step, lower, upper)
    param = param * (1 - eta * weight_decay_rate) - step * m * eta

``grad`` is the gradient; a name read before it is assigned and assigned
later is an array updated in place (``param``, or a state array); any
other assigned name is a temporary; a name only read is a scalar (a
hyperparameter, or a value the rule computes); the tests of ``if`` and of
``x if flag else y`` are boolean scalars (flags). Allowed are ``+ - * /``,
unary ``-``, numbers, and the functions ``sqrt``, ``minimum``,
``maximum`` and ``clip``. Names ending in ``_``, names ``c0``, ``c1``,
..., ``i``, ``numpy`` and ``range`` are kept for the generated code.

Each combination of flags gives one :class:`Program`. Its parts that read
only scalars (``1 - beta1``, constants) are computed once per call in
Python, so every path gets them with the same rounding. Each path then
does the same float operations in the same order: the NumPy path is a
sequence of in-place ufunc calls on the arrays and on scratch arrays
(``v = v * momentum - grad * lr`` becomes ``v *= momentum``, ``s = grad *
lr``, ``v -= s``), reusing a temporary's scratch array once it is dead;
the Numba loop and the CUDA body compute each element in locals. In
float32 and float64 the NumPy and Numba paths agree bit for bit. Float16
arrays are updated by NumPy alone: what it stores in a float16 array is
rounded there (the CUDA kernel rounds only its results).
"""
import ast
import copy
import textwrap

import numpy

_FUNCTIONS = {'sqrt': 1, 'minimum': 2, 'maximum': 2, 'clip': 3}
_UFUNCS = {ast.Add: 'add', ast.Sub: 'subtract', ast.Mult: 'multiply',
           ast.Div: 'divide'}
# Names the generated code uses (CuPy's kernels index with i).
_RESERVED = frozenset(['i', 'numpy', 'range'])
# What else an expression may hold (numbers are checked apart).
_ALLOWED = (ast.Name, ast.Load, ast.BinOp, ast.UnaryOp, ast.USub, *_UFUNCS)
_C_OPERATORS = {ast.Add: '+', ast.Sub: '-', ast.Mult: '*', ast.Div: '/'}
_SCALAR_FUNCTIONS = {'sqrt': numpy.sqrt, 'minimum': numpy.minimum,
                     'maximum': numpy.maximum, 'clip': numpy.clip}


class Formula:
    """An elementwise update rule, from which each flag combination's
    :class:`Program` is made (once).

    Args:
        source (str): the formula (see the module's documentation).
    """

    def __init__(self, source):
        self.name = 'update'  # the class's name, in a class statement
        self.source = textwrap.dedent(source).strip()
        self._statements = ast.parse(self.source).body
        self.flags = []
        for statement in self._statements:
            _check_statement(statement, self.flags)
        self._programs = {}

    def __set_name__(self, owner, name):
        self.name = owner.__name__

    def program(self, flags):
        """The :class:`Program` for ``flags``, a tuple of bools in the
        order of :attr:`flags`."""
        program = self._programs.get(flags)
        if program is None:
            chosen = dict(zip(self.flags, flags, strict=True))
            name = '_'.join([self.name] + [
                flag for flag, value in chosen.items() if value])
            program = self._programs[flags] = Program(
                name, _choose(self._statements, chosen))
        return program


def _error(node, message):
    return ValueError(f'update formula, line {node.lineno}: {message}')


def _check_statement(node, flags):
    if isinstance(node, ast.If):
        _check_flag(node.test, flags)
        for child in node.body + node.orelse:
            _check_statement(child, flags)
        return
    if isinstance(node, ast.AugAssign):
        targets, value = [node.target], node.value
        if type(node.op) not in _UFUNCS:
            raise _error(node, 'only +=, -=, *= and /= update in place')
    elif isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    else:
        raise _error(node, f'{ast.unparse(node)!r} is not an assignment')
    if len(targets) != 1 or not isinstance(targets[0], ast.Name):
        raise _error(node, 'assign to one name')
    for child in ast.walk(value):
        if isinstance(child, ast.IfExp):
            _check_flag(child.test, flags)
        elif isinstance(child, ast.Call):
            arity = _FUNCTIONS.get(getattr(child.func, 'id', None))
            if arity is None or len(child.args) != arity or child.keywords:
                raise _error(node, f'{ast.unparse(child)!r}: the functions '
                                   f'are {_FUNCTIONS} (name: arguments)')
        elif not isinstance(child, _ALLOWED) and not (
                isinstance(child, ast.Constant)
                and type(child.value) in (int, float)):
            what = ast.unparse(child) if isinstance(child, ast.expr) \
                else type(child).__name__
            raise _error(node, f'{what!r} is not allowed')


def _check_flag(test, flags):
    if not isinstance(test, ast.Name):
        raise _error(test, f'a condition is a flag name, not '
                           f'{ast.unparse(test)!r}')
    if test.id not in flags:
        flags.append(test.id)


class _ChooseBranches(ast.NodeTransformer):
    def __init__(self, flags):
        self.flags = flags

    def visit_IfExp(self, node):
        return self.visit(node.body if self.flags[node.test.id]
                          else node.orelse)


def _choose(statements, flags):
    """``(target, expression)`` pairs of ``statements`` with the branches
    ``flags`` choose, ``x op= e`` written ``x = x op (e)``."""
    chosen = []
    for statement in statements:
        if isinstance(statement, ast.If):
            chosen += _choose(statement.body if flags[statement.test.id]
                              else statement.orelse, flags)
            continue
        value = _ChooseBranches(flags).visit(copy.deepcopy(statement.value))
        if isinstance(statement, ast.AugAssign):
            target = statement.target.id
            value = ast.BinOp(ast.Name(target), statement.op, value)
        else:
            target = statement.targets[0].id
        chosen.append((target, value))
    return chosen


def _names(node):
    """The names ``node`` reads, in order (not the functions it calls)."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Call):
        return [name for arg in node.args for name in _names(arg)]
    return [name for child in ast.iter_child_nodes(node)
            for name in _names(child)]


class _Hoist(ast.NodeTransformer):
    """Replaces each largest part of an expression that reads only
    scalars (a number, ``1 - beta1``) by a fresh scalar name, keeping its
    source in :attr:`hoisted`."""

    def __init__(self, arrays):
        self.arrays = arrays
        self.hoisted = {}  # source -> name

    def visit(self, node):
        if isinstance(node, ast.expr) and not isinstance(node, ast.Name) \
                and not any(name in self.arrays for name in _names(node)):
            source = ast.unparse(node)
            name = self.hoisted.setdefault(source, f'c{len(self.hoisted)}')
            return ast.Name(name)
        return self.generic_visit(node)


class Program:
    """One flag combination of a :class:`Formula`, as the code of each
    path.

    Attributes:
        name (str): the CUDA kernel's name.
        inputs (tuple of str): the scalars it reads (hyperparameters and
            values of the rule), the arguments of :attr:`prepare`.
        prepare: returns the scalar arguments of each path's code from
            those of :attr:`inputs` (computing ``1 - beta1`` once).
        scalars (tuple of str): the names of those arguments.
        arrays (tuple of str): the arrays it updates in place (``param``
            first); each path takes ``grad`` and them first.
        n_scratch (int): the scratch arrays the NumPy path needs.
        numpy_update: the NumPy path, a function of ``grad``, the arrays,
            the scratch arrays and the scalars.
        numpy_source, numba_source (str): the source of the NumPy path and
            of the Numba loop (a function ``update`` of ``grad``, the
            arrays and the scalars, over flat arrays).
        cuda_body (str): the body of the elementwise kernel, whose
            parameters are ``grad``, the scalars and the arrays (in place).
    """

    def __init__(self, name, statements):
        self.name = name
        arrays, temporaries, inputs = _classify(statements)
        self.arrays = tuple(arrays[1:])
        self.inputs = tuple(inputs)
        hoist = _Hoist(set(arrays) | set(temporaries))
        statements = [(target, hoist.visit(value))
                      for target, value in statements]
        kernel_scalars = set(inputs) | set(hoist.hoisted.values())
        self.scalars = tuple(dict.fromkeys(
            name for _, value in statements for name in _names(value)
            if name in kernel_scalars))
        sources = {name: source for source, name in hoist.hoisted.items()}
        values = ''.join(f'{sources.get(name, name)}, '
                         for name in self.scalars)
        self.prepare = _function(
            f'def prepare({", ".join(self.inputs)}):\n'
            f'    return ({values})\n', 'prepare', _SCALAR_FUNCTIONS)
        writer = _NumpyWriter(arrays, statements, self.scalars)
        self.numpy_source, self.n_scratch = writer.source()
        self.numpy_update = _function(self.numpy_source, 'update',
                                      {'numpy': numpy})
        self.numba_source = _numba_source(arrays, statements, self.scalars)
        self.cuda_body = _cuda_body(arrays, statements)


def _classify(statements):
    """The arrays (``grad`` first, then ``param``), temporaries and
    scalars of ``statements``, each in the order they are first read."""
    assigned = {}
    read_first = {}
    for target, value in statements:
        for name in _names(value):
            if name not in assigned:
                read_first.setdefault(name, None)
        assigned.setdefault(target, None)
    if 'grad' in assigned or 'param' not in assigned:
        raise ValueError('an update formula assigns param, never grad')
    for name in list(read_first) + list(assigned):
        if name.endswith('_') or name in _RESERVED \
                or name[:1] == 'c' and name[1:].isdigit():
            raise ValueError(f'update formula: the name {name!r} is kept '
                             f'for the generated code')
    arrays = ['grad', 'param'] + [
        name for name in read_first
        if name in assigned and name != 'param']
    temporaries = [name for name in assigned if name not in arrays]
    inputs = [name for name in read_first
              if name not in assigned and name != 'grad']
    return arrays, temporaries, inputs


def _function(source, name, namespace):
    """The function ``name`` that ``source`` defines, run in a copy of
    ``namespace``."""
    namespace = dict(namespace)
    exec(compile(source, '<update formula>', 'exec'), namespace)
    return namespace[name]


class _NumpyWriter:
    """Writes a formula as NumPy ufunc calls with ``out=``: an expression
    is computed into the array it is assigned to where nothing it still
    reads is there, else into a scratch array; a temporary's scratch array
    is reused once it is dead."""

    def __init__(self, arrays, statements, scalars):
        self.arrays = arrays
        self.statements = statements
        self.scalars = scalars
        self.buffer = {name: name for name in arrays}  # name -> variable
        self.free = []
        self.n_scratch = 0
        self.lines = []

    def source(self):
        """The function's source, and its number of scratch arrays."""
        last_read = {}
        for index, (_, value) in enumerate(self.statements):
            for name in _names(value):
                last_read[name] = index
        for index, (target, value) in enumerate(self.statements):
            # The temporaries read for the last time here, and how often.
            self.reads = {
                name: _names(value).count(name)
                for name, last in last_read.items()
                if last == index and name != target
                and name in self.buffer and name not in self.arrays}
            if target not in self.buffer:
                self.buffer[target] = self.take(value)
            self.compute(value, self.buffer[target])
            for name, count in self.reads.items():
                variable = self.buffer.pop(name)
                if count is not None:  # else taken, and passed on
                    self.free.append(variable)
        scratch = [f's{index}_' for index in range(self.n_scratch)]
        parameters = ', '.join([*self.arrays, *scratch, *self.scalars])
        body = ''.join(f'    {line}\n' for line in self.lines)
        return f'def update({parameters}):\n{body}', self.n_scratch

    def take(self, node):
        """A scratch array to compute ``node`` in: that of the dying
        temporary it starts with, where nothing else reads it."""
        first = node
        while not isinstance(first, ast.Name):
            first = first.left if isinstance(first, ast.BinOp) \
                else first.operand if isinstance(first, ast.UnaryOp) \
                else first.args[0]
        if self.reads.get(first.id) == 1:
            self.reads[first.id] = None  # taken
            return self.buffer[first.id]
        if self.free:
            return self.free.pop()
        self.n_scratch += 1
        return f's{self.n_scratch - 1}_'

    def reference(self, node):
        return self.buffer.get(node.id, node.id)

    def reads_from(self, node, variable):
        return any(self.buffer.get(name) == variable
                   for name in _names(node))

    def operands(self, nodes):
        """The references of ``nodes``, computing those that are not
        names into scratch arrays; and those scratch arrays."""
        references, scratch = [], []
        for node in nodes:
            if isinstance(node, ast.Name):
                references.append(self.reference(node))
            else:
                variable = self.take(node)
                self.compute(node, variable)
                references.append(variable)
                scratch.append(variable)
        return references, scratch

    def compute(self, node, out):
        """Write the calls computing ``node`` into the variable ``out``."""
        if isinstance(node, ast.Name):
            if self.reference(node) != out:
                self.lines.append(
                    f'numpy.copyto({out}, {self.reference(node)})')
            return
        if isinstance(node, ast.BinOp):
            function, arguments = _UFUNCS[type(node.op)], [node.left,
                                                             node.right]
        elif isinstance(node, ast.UnaryOp):
            function, arguments = 'negative', [node.operand]
        else:
            function, arguments = node.func.id, node.args
        first, rest = arguments[0], arguments[1:]
        if not isinstance(first, ast.Name) and not any(
                self.reads_from(argument, out) for argument in rest):
            self.compute(first, out)
            references, scratch = self.operands(rest)
            references.insert(0, out)
        elif len(rest) == 1 and not isinstance(rest[0], ast.Name) \
                and not self.reads_from(first, out):
            self.compute(rest[0], out)
            references, scratch = self.operands([first])
            references.append(out)
        else:
            references, scratch = self.operands(arguments)
        call = f'numpy.{function}({", ".join(references)}, out={out})'
        scaled_by = [reference for reference in references
                     if reference in self.scalars]
        if function == 'multiply' and out in references and scaled_by:
            # x * 1 is x: skip the pass (eta and decay are mostly 1).
            self.lines.append(f'if {scaled_by[0]} != 1:')
            call = '    ' + call
        self.lines.append(call)
        self.free += scratch


class _Rename(ast.NodeTransformer):
    """Array names to their locals, functions to ``functions``'."""

    def __init__(self, arrays, functions):
        self.arrays = arrays
        self.functions = functions

    def visit_Name(self, node):
        return ast.Name(node.id + '_' if node.id in self.arrays else node.id)

    def visit_Call(self, node):
        self.generic_visit(node)
        return self.functions[node.func.id](*node.args)


def _call(name):
    return lambda *args: ast.Call(ast.Name(name), list(args), [])


_NUMBA_FUNCTIONS = {
    'sqrt': _call('numpy.sqrt'), 'minimum': _call('numpy.minimum'),
    'maximum': _call('numpy.maximum'),
    'clip': lambda x, low, high: _call('numpy.minimum')(
        _call('numpy.maximum')(x, low), high)}


def _numba_source(arrays, statements, scalars):
    rename = _Rename(arrays, _NUMBA_FUNCTIONS)
    lines = [f'{name}_ = {name}[i_]' for name in arrays]
    lines += [f'{target + "_" if target in arrays else target} = '
              f'{ast.unparse(rename.visit(copy.deepcopy(value)))}'
              for target, value in statements]
    lines += [f'{name}[i_] = {name}_' for name in arrays[1:]]
    body = ''.join(f'        {line}\n' for line in lines)
    return (f'def update({", ".join([*arrays, *scalars])}):\n'
            f'    for i_ in range(grad.size):\n{body}')


def _c(node, arrays):
    """``node`` in C, with the arrays' locals and CUDA's min and max."""
    if isinstance(node, ast.Name):
        return node.id + '_' if node.id in arrays else node.id
    if isinstance(node, ast.BinOp):
        return (f'({_c(node.left, arrays)} {_C_OPERATORS[type(node.op)]} '
                f'{_c(node.right, arrays)})')
    if isinstance(node, ast.UnaryOp):
        return f'(-{_c(node.operand, arrays)})'
    args = [_c(arg, arrays) for arg in node.args]
    if node.func.id == 'clip':
        return f'min(max({args[0]}, {args[1]}), {args[2]})'
    function = {'minimum': 'min', 'maximum': 'max'}.get(node.func.id,
                                                       node.func.id)
    return f'{function}({", ".join(args)})'


def _cuda_body(arrays, statements):
    lines = [f'compute_t {name}_ = {name};' for name in arrays]
    declared = set()
    for target, value in statements:
        expression = _c(value, arrays)
        if target in arrays:
            lines.append(f'{target}_ = {expression};')
        elif target in declared:
            lines.append(f'{target} = {expression};')
        else:
            declared.add(target)
            lines.append(f'compute_t {target} = {expression};')
    lines += [f'{name} = {name}_;' for name in arrays[1:]]
    return '\n'.join(lines)
