"""Static subgraph optimization: ``@static_graph`` and ``@static_code``.

A chain whose forward code applies the same functions on every call (a
*static chain*) may mark that method with :func:`static_graph`. Its first
call with a given signature runs define-by-run while a function hook records
every function applied and every :func:`static_code` call: the record is a
:class:`StaticSchedule`, a list of steps on raw arrays kept in a table of
slots. Later calls with that signature run the steps instead of the Python
code (``FunctionNode.forward`` on arrays: no Variable, node, type check or
graph traversal inside the chain) under one :class:`StaticScheduleFunction`
node, whose backward calls the recorded nodes' ``backward`` in the reverse
of the recorded order, on the arrays of that call.

Only function applications and ``static_code`` calls are replayed. Other
Python code of the chain (side-effect code) runs on recording calls only,
and the arrays it makes are constants of the schedule: an array that
reaches a function as none of an argument of the chain, a parameter or an
array attribute of its links (read again on every replay), a state of its
links, or the output of a recorded step. A *state* is a Variable (not a
Parameter) held in an attribute of a link, as a recurrent link's ``h``
and ``c``: one read by the call is an input of the replay node, one the
call sets to a step's output is an output of it, set again on every
replay; which states a call finds, and their shapes, are part of its
signature. A chain found dynamic when it is recorded again
(the second call of a signature, another call of a forward pass, a check
after 8, 16, 32... replays, every call in debug mode) raises
:class:`DynamicGraphError`.

Each replay keeps what its backward needs, so the backward of a call is
unaffected by later calls: the arrays the nodes retained, and a fresh copy
of each node whose forward keeps state of its own (an array, such as a
dropout mask, or values that differed between the two recordings); the
other nodes are applied again on every replay, their forward setting the
same values. The backward is each node's own, without the graph traversal,
in the reverse of the recorded order, on arrays: a node's
:meth:`~FunctionNode.array_backward` where it defines one, else its
``backward`` on Variables made for the purpose; gradients of a slot read
by several nodes are summed into one array. Function hooks see the single
replay node, not the recorded ones. Where the backward records a graph
(double backpropagation), the nodes of the run are wired into one, on the
arrays it kept, and run their ``backward`` on Variables: higher-order
gradients flow through a replay as through define-by-run, without running
any of its forward again.

The parameters a replay reads are its inputs, and their gradients are
final once the last node reading them has run its backward: an
optimizer's ``update(lossfun)`` updates them there, inside the backward
pass (:func:`replayed_parameters` names them).
"""
import contextlib
import copy
import functools
import operator
import threading
import types
import weakref

import numpy

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd._state import config_local as _config_local
from kusari.autograd import accumulation
from kusari.autograd import function_hook
from kusari.autograd.function import FunctionAdapter
from kusari.autograd.function_node import FunctionNode
from kusari.autograd.graph_optimizations import fusion
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import Parameter
from kusari.autograd.variable import Variable
from kusari.autograd.variable import VariableNode

_is_array = backend.is_array_supported
_new = object.__new__
_state = threading.local()  # trace: the recording in progress, if any
_managers = weakref.WeakSet()  # every live ScheduleManager


class DynamicGraphError(RuntimeError):
    """A chain marked with :func:`static_graph` applied different functions,
    or gave them different constant inputs, on two calls with the same
    signature: its graph is dynamic."""


def _not_copied():
    """What a copy or a pickle of a chain holds in place of its schedule
    manager and schedule: those refer to the original's parameters, and the
    copy records its own."""
    return None


def _gone():
    """A VariableNode's ``_variable`` once its Variable is released: the
    next ``get_variable`` makes one from the node's data."""
    return None


def _fresh_copy(node):
    """A copy of ``node`` to apply anew; an old-style Function's adapter
    gets its own copy of the Function, where the state lives."""
    state = getattr(node, '__dict__', None)
    if state is None:
        node = copy.copy(node)
    else:
        # What copy.copy does for a plain object, in a fraction of its time.
        cls = type(node)
        node = _new(cls)
        node.__dict__.update(state)
    if isinstance(node, FunctionAdapter):
        function = node._function = copy.copy(node._function)
        function._node_ref = weakref.ref(node)
    return node


# Fields of a node that FunctionNode.apply sets (the graph), not its forward.
_GRAPH_FIELDS = frozenset(('inputs', 'outputs', 'rank', 'stack',
                           '_retained_output_data'))
_PLAIN = (type(None), bool, int, float, complex, str, bytes, slice, type,
          numpy.dtype, numpy.generic)


def _is_plain(value):
    """Whether ``value`` is an immutable value that holds no array."""
    if isinstance(value, tuple):
        return all([_is_plain(v) for v in value])
    return isinstance(value, _PLAIN)


def _state_made(template, node):
    """The fields the recorded forward of ``node`` set (those a copy of
    ``template``, the node before it, lacks or holds otherwise), if all are
    plain values; None where one is not (an array: a dropout mask, say),
    and for an old-style Function (whose state its adapter does not show).
    """
    if isinstance(node, FunctionAdapter) or not hasattr(node, '__dict__'):
        return None
    before = template.__dict__
    made = {}
    for field, value in node.__dict__.items():
        if field in _GRAPH_FIELDS or before.get(field, _gone) is value:
            continue
        if not _is_plain(value):
            return None
        made[field] = value
    return made


def _owners(chain):
    """The links whose attributes a static chain reads: its ``links()``,
    or the chain alone."""
    links = getattr(chain, 'links', None)
    return list(links()) if links is not None else [chain]


def _states(owners):
    """``(owner, name, variable)`` of each state of ``owners``: a Variable
    other than a Parameter held in an attribute."""
    return [(owner, name, value) for owner in owners
            for name, value in vars(owner).items()
            if isinstance(value, Variable) and
            not isinstance(value, Parameter)]


def _type_of(array):
    if array is None or not _is_array(array):
        return None
    return array.shape, array.dtype, type(array)


def _as_arrays(outputs):
    """A forward's outputs with NumPy scalars made 0-d arrays again."""
    for y in outputs:
        if isinstance(y, numpy.generic):
            return tuple([force_array(y) for y in outputs])
    return outputs


# -- recording -----------------------------------------------------------

class _Slot:
    """A reference to a slot of the schedule's table in a recorded
    argument list."""

    __slots__ = ('index',)

    def __init__(self, index):
        self.index = index


class _NodeOf:
    """A reference to the node a step applies on each run, in a recorded
    argument list (static code reading what a node's forward computed)."""

    __slots__ = ('step',)

    def __init__(self, step):
        self.step = step


_REFERENCES = (_Slot, _NodeOf, FunctionNode)


def _map(obj, leaf, kinds=_REFERENCES, arrays=True):
    """``obj`` with each instance of ``kinds`` and, if ``arrays``, each
    array (in lists, tuples and dicts, at any depth) replaced by
    ``leaf(obj)``. (A module-level recursion: a recursive closure would
    make a reference cycle, holding the arrays until garbage collection.)
    """
    if isinstance(obj, kinds) or (arrays and _is_array(obj)):
        return leaf(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)([_map(x, leaf, kinds, arrays) for x in obj])
    if isinstance(obj, dict):
        return {k: _map(v, leaf, kinds, arrays) for k, v in obj.items()}
    return obj


class _Op:
    """A top-level node of a recording, with the slots of its inputs and
    outputs: the unit of the backward schedule."""

    __slots__ = ('node', 'in_slots', 'out_slots', 'targets', 'in_nodes',
                 'out_refs', 'in_positions', 'out_positions', 'in_arrays',
                 'out_arrays', 'target_slots', 'array_level', 'adds_into',
                 'config')

    def __init__(self, node, in_slots, out_slots):
        self.node = node
        self.in_slots = in_slots
        self.out_slots = out_slots
        self.targets = ()
        self.config = None  # (key, value) pairs the chain's code had set


def _positions(slots, indexes, position):
    """Where a run keeps the arrays of ``slots`` at ``indexes`` (the
    retained ones): their positions in its tuple of retained arrays, -1
    (its last item, None) for the others; None where none is retained."""
    if not indexes:
        return None
    return tuple([position[s] if i in indexes else -1
                  for i, s in enumerate(slots)])


def _gatherer(positions, count):
    """A function from a sequence (a run's retained arrays, the table) to
    its ``count`` items at ``positions`` as a tuple; ``count`` Nones where
    ``positions`` is None (see :func:`_positions`)."""
    if positions is None or not positions:
        nothing = (None,) * count
        return lambda items: nothing
    if len(positions) == 1:
        return lambda items, k=positions[0]: (items[k],)
    return operator.itemgetter(*positions)


class _NodeStep(_Op):
    """Runs a recorded node's ``forward`` on the arrays of its slots.

    A node is applied once: each run applies a fresh copy of the node as
    it was before its recorded forward, so that state a forward draws or
    caches (a dropout mask) is made anew, and that of an earlier call is
    left to that call's backward; except where its forward sets only plain
    values, the same on both recordings (``shared``: one node for every
    run, see :meth:`StaticSchedule.share_nodes`).
    """

    __slots__ = ('template', 'made', 'shared', 'gather')

    def __init__(self, template, node, in_slots, out_slots):
        super().__init__(node, in_slots, out_slots)
        self.template = template
        self.made = _state_made(template, node)
        self.shared = None
        self.gather = _gatherer(in_slots, len(in_slots))

    @property
    def kind(self):
        return type(self.template)

    def __call__(self, table):
        node = self.shared
        if node is None:
            node = self.node = _fresh_copy(self.template)
        outputs = node.forward(self.gather(table))
        out_slots = self.out_slots
        if len(out_slots) == 1:
            y = outputs[0]
            if isinstance(y, numpy.generic):
                y = force_array(y)
                outputs = y,
            table[out_slots[0]] = y
        else:
            outputs = _as_arrays(outputs)
            for s, y in zip(out_slots, outputs):
                table[s] = y
        indexes = node._output_indexes_to_retain
        if indexes is not None:
            node._retained_output_data = tuple([outputs[i] for i in indexes])

    def __repr__(self):
        return (f'{self.template.label}: slots {list(self.in_slots)} -> '
                f'{list(self.out_slots)}')


class _CodeStep:
    """Runs a recorded :func:`static_code` call on the arrays of its
    slots; the arrays it returns fill ``out_slots``."""

    __slots__ = ('function', 'args', 'kwargs', 'out_slots', 'config')

    def __init__(self, function, args, kwargs, out_slots, config):
        self.function = function
        self.args = args
        self.kwargs = kwargs
        self.out_slots = out_slots
        self.config = config

    @property
    def kind(self):
        return getattr(self.function, '__func__', self.function)

    def __call__(self, table):
        def fill(ref):
            if isinstance(ref, _Slot):
                return table[ref.index]
            return ref.step.node if isinstance(ref, _NodeOf) else ref
        result = self.function(*_map(self.args, fill),
                               **_map(self.kwargs, fill))
        if self.out_slots:
            arrays = (result,) if _is_array(result) else result
            for s, y in zip(self.out_slots, arrays):
                table[s] = y

    def __repr__(self):
        return (f'static_code {self.function.__qualname__} -> '
                f'{list(self.out_slots)}')


class _Trace(function_hook.FunctionHook):
    """Records one define-by-run call of a static chain: the steps, and the
    slot of every array they read or write."""

    name = 'StaticGraphTrace'

    def __init__(self, chain):
        self.chain = chain
        self.arrays = []     # slot -> the array of this call
        self.slot_of = {}    # id(array) -> its latest slot
        self.leaves = {}     # slot -> the Parameter read on every replay
        self.attributes = {}  # slot -> (link, name) read on every replay
        self.owners = _owners(chain)
        self.states = _states(self.owners)  # as the call found them
        self.states_in = {}  # slot -> (link, name) of a state read
        self.produced = set()
        self.steps = []
        self.ops = []
        self.step_of_node = {}  # id(node) -> the _NodeStep applying it
        self.depth = 0
        self.code_steps = None  # static code of an opted-in node
        self.opted_in = False
        self._pending = None
        self._template = None
        self._captured = None
        self._params = {}
        self._attribute_map = None
        self._config = None
        self._entry_config = dict(_config_local.__dict__)

    def config_set(self):
        """The configuration the chain's code set around the current step
        (``(key, value)`` pairs; None for none): a replay sets it too."""
        entry = self._entry_config
        changed = tuple([(key, value) for key, value
                         in _config_local.__dict__.items()
                         if entry.get(key, _gone) is not value])
        return changed or None

    def new_slot(self, array):
        slot = len(self.arrays)
        self.arrays.append(array)
        self.slot_of[id(array)] = slot
        return slot

    def slot(self, array):
        """The slot of ``array``; one met for the first time is a parameter
        of the chain (a leaf) or a constant of the schedule."""
        slot = self.slot_of.get(id(array))
        if slot is None:
            slot = self.new_slot(array)
            param = self._param_of(array)
            state = self._state_of(array)
            if param is not None:
                self.leaves[slot] = param
            elif state is not None:
                self.states_in[slot] = state
            elif id(array) in self._attributes():
                self.attributes[slot] = self._attributes()[id(array)]
        return slot

    def _attributes(self):
        """``id(array) -> (link, name)`` for the arrays held in attributes
        of the chain's links (running statistics, say): read again on every
        replay, so that one set anew (moved to another device, say) is
        used."""
        if self._attribute_map is None:
            self._attribute_map = {
                id(value): (owner, name) for owner in self.owners
                for name, value in vars(owner).items() if _is_array(value)}
        return self._attribute_map

    def _state_of(self, array):
        for owner, name, variable in self.states:
            if variable.array is array:
                return owner, name
        return None

    def states_set(self):
        """``(owner, name, slot)`` of each state the call set to an array
        a step made."""
        before = {(id(owner), name): variable
                  for owner, name, variable in self.states}
        return [(owner, name, self.slot_of[id(variable.array)])
                for owner, name, variable in _states(self.owners)
                if before.get((id(owner), name)) is not variable and
                self.slot_of.get(id(variable.array)) in self.produced]

    def _param_of(self, array):
        if id(array) not in self._params and hasattr(self.chain, 'params'):
            # Parameters initialized lazily get their arrays during the call.
            self._params = {id(p.array): p for p in self.chain.params()
                            if p.array is not None}
        return self._params.get(id(array))

    # -- function applications -------------------------------------------

    def forward_preprocess(self, function, in_data):
        self.depth += 1
        if self.depth > 1:
            return  # applied inside another node's forward: part of it
        self._pending = tuple([self.slot(x) for x in in_data])
        self._config = self.config_set()
        if getattr(function, '_supports_static_optimizations', False):
            self.code_steps = []
        else:
            self.code_steps = None
            self._template = _fresh_copy(function)
        # The hook does not see the outputs: capture them on the way.
        function.forward = functools.partial(self._capture, function)

    def _capture(self, function, inputs):
        outputs = type(function).forward(function, inputs)
        if type(outputs) is tuple:
            outputs = _as_arrays(outputs)
        self._captured = outputs
        return outputs

    def forward_postprocess(self, function, in_data):
        self.depth -= 1
        if self.depth:
            return
        del function.forward
        outputs = self._captured
        if self.code_steps is None:
            op = _NodeStep(self._template, function, self._pending,
                           tuple([self.new_slot(y) for y in outputs]))
            op.config = self._config
            self.steps.append(op)
            self.step_of_node[id(function)] = op
        else:
            # An opted-in node: its static code computes its outputs in
            # arrays it keeps, and the node itself is kept for backward.
            op = _Op(function, self._pending,
                     tuple([self.slot(y) for y in outputs]))
            self.steps.extend(self.code_steps)
            self.opted_in = True
        self.produced.update(op.out_slots)
        self.ops.append(op)
        self.code_steps = self._pending = self._captured = None
        self._template = None

    # -- static code -----------------------------------------------------

    def records_code(self):
        """Whether a static_code call now is a step of its own: in the
        chain's code, or in the forward of a node that opted in."""
        return self.depth == 0 or (
            self.depth == 1 and self.code_steps is not None)

    def record_code(self, function, args, kwargs):
        def slot_ref(obj):
            if isinstance(obj, FunctionNode):
                step = self.step_of_node.get(id(obj))
                return obj if step is None else _NodeOf(step)
            return _Slot(self.slot(obj))
        args_template = _map(args, slot_ref)
        kwargs_template = _map(kwargs, slot_ref)
        result = function(*args, **kwargs)
        if _is_array(result):
            out_slots = (self.new_slot(result),)
        elif isinstance(result, (list, tuple)) and result and all(
                _is_array(y) for y in result):
            out_slots = tuple([self.new_slot(y) for y in result])
        else:
            out_slots = ()
        self.produced.update(out_slots)
        step = _CodeStep(function, args_template, kwargs_template, out_slots,
                         self.config_set())
        (self.steps if self.code_steps is None else
         self.code_steps).append(step)
        return result


def static_code(func):
    """Mark code of a static chain (or of a FunctionNode's ``forward``) to
    run on every call.

    A :func:`static_graph` chain runs its Python code on recording calls
    only; a call of a function decorated with ``static_code`` is recorded
    as a step of the schedule and replayed on every later call, with the
    arrays of that call in place of the recorded ones (arrays in its
    arguments, in lists, tuples and dicts at any depth; other arguments,
    Variables included, are passed as they were). Arrays it returns are
    outputs of the step; it may also write results into arrays passed to
    it. A FunctionNode applied by the chain may be passed too: each replay
    passes the node it applied in its place (to read what its forward
    computed). Outside a recording it is a plain call.
    """
    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        trace = getattr(_state, 'trace', None)
        if trace is None or not trace.records_code():
            return func(*args, **kwargs)
        return trace.record_code(func, args, kwargs)
    return wrapped


# -- the signature of a call -----------------------------------------------

def _signature(args, kwargs):
    """``(inputs, key)`` of a call: its distinct Variables and arrays in
    order, and a hashable key of everything a schedule depends on in the
    arguments (shapes, dtypes, devices, which arguments are the same
    object, and the other values)."""
    inputs = []
    position = {}
    key = (_key_of(args, inputs, position), _key_of(kwargs, inputs, position))
    arrays = {}
    for i, x in enumerate(inputs):
        array = x.array if isinstance(x, Variable) else x
        if arrays.setdefault(id(array), i) != i:
            raise ValueError(
                f'static_graph: arguments {arrays[id(array)]} and {i} are '
                f'different objects holding the same array; pass one')
    return inputs, key


def _states_key(chain):
    """What a schedule depends on in the states of a chain's links: which
    ones hold a Variable, its shape, dtype, array type and whether it
    needs a gradient."""
    return tuple([(index, name, variable.shape, variable.dtype,
                   type(variable.array), variable.requires_grad)
                  for index, owner in enumerate(_owners(chain))
                  for _, name, variable in _states((owner,))])


def _key_of(obj, inputs, position):
    if isinstance(obj, Variable) or _is_array(obj):
        seen = position.get(id(obj))
        if seen is None:
            seen = position[id(obj)] = len(inputs)
            inputs.append(obj)
        if isinstance(obj, Variable):
            array = obj.array
            if array is None:
                raise ValueError(
                    'static_graph: an argument Variable holds no array')
            return ('V', seen, array.shape, array.dtype, type(array),
                    obj.requires_grad)
        return ('A', seen, obj.shape, obj.dtype, type(obj))
    if isinstance(obj, (list, tuple)):
        return (type(obj), tuple([_key_of(x, inputs, position)
                                  for x in obj]))
    if isinstance(obj, dict):
        return (dict, tuple(sorted((k, _key_of(v, inputs, position))
                                   for k, v in obj.items())))
    try:
        hash(obj)
    except TypeError:
        return ('object', id(obj))
    return obj


# -- schedules -------------------------------------------------------------

def _output_template(outputs, slot):
    """``outputs`` with each Variable or array replaced by a reference to
    its place in the tuple of output slots, and that tuple."""
    slots = []

    def leaf(x):
        slots.append(slot(x.array if isinstance(x, Variable) else x))
        return _Slot((isinstance(x, Variable), len(slots) - 1))
    return _map(outputs, leaf, Variable), tuple(slots)


def _fill_outputs(template, variables):
    def fill(ref):
        is_variable, i = ref.index
        return variables[i] if is_variable else variables[i].array
    return _map(template, fill, _Slot, arrays=False)


class StaticSchedule:
    """The steps of one recorded call of a static chain, and the table of
    arrays they read and write; replayed by :class:`StaticScheduleFunction`.

    Each run keeps what its backward needs (the nodes it applied, the
    arrays they retained), so the backward of one call is unaffected by
    later runs; except where a node that opted in (static code writing
    into arrays it keeps) is part of the schedule: those arrays hold the
    latest run only, and the backward of an earlier one is refused.

    Attributes:
        steps: the forward steps, in order.
        generation: how many times the schedule ran (0: only recorded).
    """

    def __init__(self, manager, trace, input_slots, outputs):
        self.manager = manager
        self.steps = trace.steps
        self.table = trace.arrays
        self.leaves = list(trace.leaves.items())
        self.attributes = [(s, owner, name) for s, (owner, name)
                           in trace.attributes.items()]
        self.states_in = [(owner, name) for owner, name
                          in trace.states_in.values()]
        self._types = self._current_types()
        self.input_slots = tuple(input_slots) + tuple(
            s for s, _ in self.leaves) + tuple(trace.states_in)
        self.template, self.output_slots = _output_template(
            outputs, trace.slot)
        states_out = trace.states_set()
        self.states_out = [(owner, name) for owner, name, _ in states_out]
        self.output_slots += tuple([s for _, _, s in states_out])
        # Outputs in arrays that the steps write in place would change
        # under the caller at the next call: those are copied.
        made = {s for step in trace.steps if isinstance(step, _NodeStep)
                for s in step.out_slots}
        self._copied = tuple(s in trace.produced and s not in made
                             for s in self.output_slots)
        # The arrays a run sets (rather than writes into) are let go after
        # it: what its backward needs, it keeps itself.
        made.update(s for step in trace.steps
                    if isinstance(step, _CodeStep) for s in step.out_slots)
        self._transient = tuple(sorted(made.union(self.input_slots)))
        self._node_steps = [step for step in self.steps
                            if isinstance(step, _NodeStep)]
        # (For fusion, and the Variables of a backward recording a graph.)
        self._slot_types = [(None, None) if a is None else (a.shape, a.dtype)
                            for a in trace.arrays]
        self.xp = next((backend.get_array_module(a) for a in trace.arrays
                        if a is not None), numpy)
        self._run_steps = self.steps  # what a run runs: see fuse()
        self._constants, self._constant_outputs = self._constants_of(trace)
        self.generation = 0
        self.replays_left = 0  # until the next recording checks this one
        self.interval = 0
        self.in_use = False
        self.user = None  # the node whose backward needs this schedule
        self._check_leaves_reached(trace)
        self.backward_ops = self._backward_ops(trace)
        self.keeps_arrays = trace.opted_in
        self._retained_slots, self._fallback_nodes = self._slot_nodes()
        self._release()

    def _release(self):
        table = self.table
        for s in self._transient:
            table[s] = None
        for step in self._node_steps:
            step.node = step.shared  # and what its forward kept on it

    def share_nodes(self, reference):
        """Apply one node on every run for each step whose forward set the
        same plain values on this recording as on ``reference`` (an
        earlier recording of the signature): what a fresh copy of it per
        run would keep is the same on every run."""
        for step, earlier in zip(self._node_steps, reference._node_steps):
            if step.made is not None and earlier.made is not None and \
                    step.made == earlier.made:
                step.shared = step.node = _fresh_copy(step.template)

    def fuse(self):
        """Run each run of elementwise steps as one loop from now on (see
        :mod:`.fusion`); called once nodes are shared."""
        referenced = set()
        for step in self.steps:
            if isinstance(step, _CodeStep):
                _map((step.args, step.kwargs),
                     lambda ref: referenced.add(ref.step), _NodeOf,
                     arrays=False)
        self._run_steps = fusion.fused_steps(
            self, self.steps, _NodeStep, referenced,
            set(self.output_slots) | set(self._retained_slots), _reads)

    def _constants_of(self, trace):
        """``(step, input index, slot)`` of each node input that is a
        constant of the schedule (no argument, parameter, attribute or
        step output; nor an array static code may write), and ``(output
        index, slot)`` of each output that is one."""
        varying = set(self._transient) | trace.produced | set(trace.leaves) \
            | set(trace.attributes)
        for step in self.steps:
            if isinstance(step, _CodeStep):
                _map((step.args, step.kwargs),
                     lambda ref: varying.add(ref.index), _Slot, arrays=False)
        return ([(step, i, s) for step in self._node_steps
                 for i, s in enumerate(step.in_slots) if s not in varying],
                [(i, s) for i, s in enumerate(self.output_slots)
                 if s not in varying])

    def _current_types(self):
        """Shape, dtype and array type of each parameter and attribute the
        schedule reads (and whether the parameter needs a gradient)."""
        types = []
        for _, param in self.leaves:
            types.append((_type_of(param.array), param.requires_grad))
        for _, owner, name in self.attributes:
            types.append(_type_of(getattr(owner, name, None)))
        return types

    def matches(self):
        """Whether the parameters and attributes the schedule reads still
        have the shapes, dtypes and devices it was recorded with."""
        return self._current_types() == self._types

    def _check_leaves_reached(self, trace):
        """A Variable that needs a gradient must reach the chain as an
        argument or a parameter: any other one would be a constant of the
        schedule, and its gradient lost."""
        known = trace.produced | set(self.input_slots)
        for op in trace.ops:
            if op.node.inputs is None:
                continue  # no graph recorded: no gradient either
            for i, (vnode, s) in enumerate(zip(op.node.inputs, op.in_slots)):
                if vnode.requires_grad and s not in known:
                    raise ValueError(
                        f'static_graph: input {i} of {op.node.label} in '
                        f'{self.manager.name} is a Variable that needs a '
                        f'gradient but is none of the arguments of the '
                        f'chain, its parameters or the states of its links '
                        f'(Variables kept in their attributes); pass it as '
                        f'an argument')

    def _backward_ops(self, trace):
        """The ops whose backward a replay runs, each with the inputs that
        needed a gradient in the recording's graph (an argument's array
        passed on raw, detached, needs none)."""
        needs = set()
        ops = []
        for op in trace.ops:
            if op.node.inputs is None:
                continue  # no input needed a gradient: no graph recorded
            op.targets = tuple([i for i, vnode in enumerate(op.node.inputs)
                                if vnode.requires_grad])
            if op.targets:
                needs.update(op.in_slots[i] for i in op.targets)
                needs.update(op.out_slots)
                ops.append(op)
        self._needs_grad = needs
        return ops

    def _slot_nodes(self):
        """The slots of the arrays the nodes of the backward schedule
        retain (a run keeps them, in this order), and the list
        ``(variable node, position in that order)`` of those that a node
        without an array-level backward reads through its ``inputs``.

        Each op gets the positions of its retained inputs and outputs
        (``in_positions``, ``out_positions``: see :func:`_positions`) and
        functions gathering them (``in_arrays``, ``out_arrays``), and the
        slots of the inputs it gives a gradient; an op
        without an array-level backward gets input and output nodes of its
        own (its ``inputs`` and ``outputs`` in backward)."""
        retained = set()
        for op in self.backward_ops:
            node = op.node
            for i in node._input_indexes_to_retain or ():
                retained.add(op.in_slots[i])
            for i in node._output_indexes_to_retain or ():
                retained.add(op.out_slots[i])
        retained = tuple(sorted(retained))
        position = {s: k for k, s in enumerate(retained)}
        slot_nodes = {}

        def node_of(s):
            vnode = slot_nodes.get(s)
            if vnode is None:
                vnode = slot_nodes[s] = VariableNode(Variable(
                    self.table[s], requires_grad=s in self._needs_grad))
                vnode._variable = _gone
            return vnode

        for op in self.backward_ops:
            node = op.node
            op.in_positions = _positions(
                op.in_slots, node._input_indexes_to_retain, position)
            op.out_positions = _positions(
                op.out_slots, node._output_indexes_to_retain, position)
            op.in_arrays = _gatherer(op.in_positions, len(op.in_slots))
            op.out_arrays = _gatherer(op.out_positions, len(op.out_slots))
            op.target_slots = tuple([op.in_slots[i] for i in op.targets])
            op.array_level = node._has_array_backward
            op.adds_into = hasattr(node, 'array_backward_add')
            if not op.array_level:
                op.in_nodes = tuple([node_of(s) for s in op.in_slots])
                op.out_refs = tuple([weakref.ref(node_of(s))
                                     for s in op.out_slots])
        fallback = [(vnode, position[s]) for s, vnode in slot_nodes.items()
                    if s in position]
        return retained, fallback

    def run(self, inputs, backprop):
        """Run the forward steps on ``inputs`` (arrays, one per input
        slot); the output arrays, and what the backward of this run needs
        (None without ``backprop``)."""
        table = self.table
        for s, x in zip(self.input_slots, inputs):
            table[s] = x
        for s, owner, name in self.attributes:
            table[s] = getattr(owner, name)
        for step in self._run_steps:
            if step.config is None:
                step(table)
            else:
                with contextlib.ExitStack() as stack:
                    for key, value in step.config:
                        stack.enter_context(
                            configuration.using_config(key, value))
                    step(table)
        self.generation += 1
        outputs = tuple([table[s].copy() if copied else table[s]
                         for s, copied in zip(self.output_slots,
                                              self._copied)])
        state = None
        if backprop:
            # (-1, a position of no retained array, reads the None.)
            state = (tuple([op.node for op in self.backward_ops]),
                     tuple([table[s] for s in self._retained_slots] +
                           [None]))
        self._release()
        return outputs, state

    def run_backward(self, state, grad_outputs, sums=None):
        """Gradients of the input slots (arrays) from those of the output
        slots (arrays or None): the backward of the nodes of the run that
        ``state`` describes, last node first. A list by slot, and the set
        of the slots whose array this backward made, or was given in
        ``sums`` (slot -> array) to add the gradient into in place."""
        nodes, retained = state
        for vnode, k in self._fallback_nodes:
            vnode.data = retained[k]
            vnode._variable = _gone
        grads = [None] * len(self.table)
        summed = set()  # slots whose array this backward made: added into
        if sums:
            for s, array in sums.items():
                grads[s] = array
                summed.add(s)
        for s, gy in zip(self.output_slots, grad_outputs):
            if gy is not None:
                _accumulate(grads, summed, s, gy)
        for op, node in zip(reversed(self.backward_ops), reversed(nodes)):
            out_slots = op.out_slots
            if len(out_slots) == 1:
                s = out_slots[0]
                gy = grads[s]
                if gy is None:
                    continue
                grads[s] = None
                gys = (gy,)
            else:
                gys = tuple([grads[s] for s in out_slots])
                if not any([gy is not None for gy in gys]):
                    continue
                for s in out_slots:
                    grads[s] = None
            targets = op.targets
            if op.array_level:
                if op.adds_into:
                    gxs = node.array_backward_add(
                        targets, gys, op.in_arrays(retained),
                        op.out_arrays(retained),
                        tuple([grads[s] if s in summed else None
                               for s in op.target_slots]))
                else:
                    gxs = node.array_backward(targets, gys,
                                              op.in_arrays(retained),
                                              op.out_arrays(retained))
                if len(gxs) != len(targets):
                    gxs = [gxs[i] for i in targets]
            else:
                gxs = _variable_backward(op, node, gys, retained)
            for s, gx in zip(op.target_slots, gxs):
                if gx is not None:
                    _accumulate(grads, summed, s, gx)
        return grads, summed

    def __reduce__(self):
        return _not_copied, ()

    def __repr__(self):
        lines = [f'StaticSchedule of {self.manager.name}: '
                 f'{len(self.steps)} steps, inputs in slots '
                 f'{list(self.input_slots)}, outputs in slots '
                 f'{list(self.output_slots)}']
        lines += [f'  {i}: {step!r}' for i, step in enumerate(self.steps)]
        return '\n'.join(lines)


def _reads(step):
    """The slots a step reads."""
    if isinstance(step, _NodeStep):
        return step.in_slots
    found = []
    _map((step.args, step.kwargs), lambda ref: found.append(ref.index),
         _Slot, arrays=False)
    return found


def _accumulate(grads, summed, s, g):
    """Add the gradient ``g`` to that of slot ``s``: into the array where
    the sum is one this backward made (in ``summed``), else into a new
    one (the gradients a backward returns may be arrays held elsewhere)."""
    old = grads[s]
    if old is None:
        grads[s] = g
    elif s in summed:
        old += g
    else:
        grads[s] = force_array(old + g)
        summed.add(s)


def _variable_backward(op, node, grad_outputs, retained):
    """A node's ``backward`` on Variables (without a graph) in a replay:
    its input and output nodes are those of its op, holding the arrays of
    the run; the gradient arrays, one per target input."""
    node.inputs = op.in_nodes
    node.outputs = op.out_refs
    indexes = node._output_indexes_to_retain
    if indexes is not None:  # (a node shared by every run: this run's)
        node._retained_output_data = tuple([
            retained[op.out_positions[i]] for i in indexes])
    gys = tuple([None if gy is None else Variable._bare(gy, True)
                 for gy in grad_outputs])
    return [None if gx is None else gx.array
            for gx in _node_backward(node, op.targets, gys)]


def _node_backward(node, targets, grad_outputs):
    """``node``'s gradients (Variables) of the inputs at ``targets``, one
    each, from ``grad_outputs`` (Variables or None)."""
    if node._accumulates:
        return node.backward_accumulate(targets, grad_outputs,
                                        (None,) * len(targets))
    gxs = node.backward(targets, grad_outputs)
    if len(gxs) != len(targets):
        gxs = [gxs[i] for i in targets]
    return gxs


class StaticScheduleFunction(FunctionNode):
    """One replay of a :class:`StaticSchedule`: a single node from the
    chain's arguments and parameters to its outputs.

    ``forward`` runs the schedule's steps; ``backward`` runs the recorded
    nodes' backward in reverse order, on arrays, or on Variables with a
    graph of their own where the backward records one (double
    backpropagation).
    """

    def __init__(self, schedule):
        self.schedule = schedule
        self.generation = None
        self._state = None

    def forward(self, inputs):
        schedule = self.schedule
        outputs, self._state = schedule.run(
            inputs, configuration.config.enable_backprop)
        self.generation = schedule.generation
        return outputs

    def backward(self, target_input_indexes, grad_outputs):
        return self.backward_accumulate(
            target_input_indexes, grad_outputs,
            (None,) * len(target_input_indexes))

    def backward_accumulate(self, target_input_indexes, grad_outputs,
                            grad_inputs):
        """The replay's backward; a gradient the backward pass alone holds
        (a weight's, summed over the calls of a sequence so far) takes the
        replay's contributions in place."""
        schedule = self.schedule
        _check_not_replayed(schedule, self.generation)
        schedule.manager.end_forward()
        if configuration.config.enable_backprop:
            return self._graph_backward(target_input_indexes, grad_outputs,
                                        grad_inputs)
        input_slots = schedule.input_slots
        sums = {input_slots[i]: g._array
                for i, g in zip(target_input_indexes, grad_inputs)
                if g is not None and accumulation.private(g, self.inputs[i])}
        grads, summed = schedule.run_backward(
            self._state,
            [None if gy is None else gy.array for gy in grad_outputs], sums)
        ret = []
        for i, g in zip(target_input_indexes, grad_inputs):
            s = input_slots[i]
            if s in sums or grads[s] is None:
                ret.append(g)  # (added into in place, or nothing to add)
                continue
            gx = Variable._bare(grads[s], True)
            if g is None and s in summed:
                accumulation.hand_over(gx, self.inputs[i])
            ret.append(accumulation.accumulate(g, gx, self.inputs[i]))
        return tuple(ret)

    def _graph_backward(self, target_input_indexes, grad_outputs,
                        grad_inputs):
        """The replay's backward recording a graph (double
        backpropagation): each node of this run runs its ``backward`` on
        Variables, in the graph of :meth:`_wired_nodes`."""
        schedule = self.schedule
        grads = {}
        for s, gy in zip(schedule.output_slots, grad_outputs):
            if gy is not None:
                _add_variable(grads, s, gy)
        for op, node in reversed(self._wired_nodes()):
            gys = tuple([grads.pop(s, None) for s in op.out_slots])
            if all([gy is None for gy in gys]):
                continue
            for s, gx in zip(op.target_slots,
                             _node_backward(node, op.targets, gys)):
                if gx is not None:
                    _add_variable(grads, s, gx)
        ret = []
        for i, g in zip(target_input_indexes, grad_inputs):
            gx = grads.get(schedule.input_slots[i])
            ret.append(g if gx is None
                       else accumulation.accumulate(g, gx, self.inputs[i]))
        return tuple(ret)

    def _wired_nodes(self):
        """``(op, node)`` for each node of this run's backward: a copy of
        the node wired to the others and to this node's inputs as
        define-by-run would have wired it, on the arrays the run kept.
        Nothing of the forward runs again."""
        schedule = self.schedule
        nodes, retained = self._state
        position = {s: k for k, s in enumerate(schedule._retained_slots)}

        def kept(s):
            k = position.get(s)
            return None if k is None else retained[k]

        def typed(var, s):
            """``var``'s node, of slot ``s``'s shape and dtype also where
            the run kept no array for it."""
            vnode = var._node or var.node
            vnode.shape, vnode.dtype = schedule._slot_types[s]
            return vnode

        vnodes = dict(zip(schedule.input_slots, self.inputs))
        constants = {}
        wired = []
        for op, node in zip(schedule.backward_ops, nodes):
            node = _fresh_copy(node)  # (a node shared by every run)
            in_nodes = []
            for i, s in enumerate(op.in_slots):
                # An input that needed no gradient in the recording (a
                # constant, or an array passed on raw) is a constant here.
                vnode = vnodes.get(s) if i in op.targets else \
                    constants.get(s)
                if vnode is None:
                    vnode = constants[s] = typed(
                        Variable._bare(kept(s), False), s)
                in_nodes.append(vnode)
            node.inputs = tuple(in_nodes)
            node.rank = max([vnode._rank for vnode in in_nodes])
            out_nodes = [typed(Variable._output(kept(s), node, node.rank + 1),
                               s) for s in op.out_slots]
            node.outputs = tuple([weakref.ref(vnode) for vnode in out_nodes])
            vnodes.update(zip(op.out_slots, out_nodes))
            for i in node._input_indexes_to_retain or ():
                in_nodes[i].data = kept(op.in_slots[i])
            indexes = node._output_indexes_to_retain
            if indexes is not None:
                node._retained_output_data = tuple([
                    kept(op.out_slots[i]) for i in indexes])
                for i in indexes:
                    out_nodes[i].data = kept(op.out_slots[i])
            wired.append((op, node))
        return wired


def _add_variable(grads, s, g):
    """Add the gradient Variable ``g`` to that of slot ``s`` in ``grads``
    (a graph is recorded: never in place)."""
    old = grads.get(s)
    grads[s] = g if old is None else old + g


def _check_not_replayed(schedule, generation):
    if schedule.keeps_arrays and schedule.generation != generation:
        raise RuntimeError(
            f'static_graph: {schedule.manager.name} ran its schedule again '
            f'before the backward of an earlier call through it; call '
            f'backward first, or end_forward() only once the backward of '
            f'every call is done')


class _ForwardEnd(FunctionNode):
    """Identity on the outputs of a recording call: its backward tells the
    schedule manager that the forward pass has ended."""

    def __init__(self, schedule):
        self.schedule = schedule

    def forward(self, inputs):
        return inputs

    def backward(self, target_input_indexes, grad_outputs):
        _check_not_replayed(self.schedule, 0)
        self.schedule.manager.end_forward()
        return grad_outputs


class ScheduleManager:
    """The schedules of one static chain (one per decorated method).

    One schedule is kept per signature of a call (argument shapes and
    dtypes, ``config.train``, ``config.enable_backprop``) and, while
    backprop is enabled, per call in the forward pass: a call takes the
    first schedule of its signature that no earlier call of the pass holds,
    and records a new one if there is none. A backward through an output
    of the chain ends the forward pass; :meth:`end_forward` ends it
    explicitly (needed where several forward passes precede a backward).
    """

    def __init__(self, chain, func, verbosity_level):
        self.func = func
        self.name = f'{type(chain).__name__}.{func.__name__}'
        self.verbosity_level = verbosity_level
        self.schedules = {}
        _managers.add(self)

    def end_forward(self):
        """End the forward pass: every schedule is free for the next."""
        for schedules in self.schedules.values():
            for schedule in schedules:
                schedule.in_use = False

    def replayed_parameters(self):
        """The parameters read by the replays of the forward pass in
        progress: those whose gradients a replay's backward computes."""
        return [param for schedules in self.schedules.values()
                for schedule in schedules if schedule.in_use and
                isinstance(schedule.user(), StaticScheduleFunction)
                for _, param in schedule.leaves]

    def __call__(self, chain, args, kwargs):
        inputs, key = _signature(args, kwargs)
        config = configuration.config
        backprop = bool(config.enable_backprop)
        key = (key, bool(config.train), backprop, _states_key(chain))
        cached = self.schedules.setdefault(key, [])
        chosen = None
        for i, schedule in enumerate(cached):
            if not schedule.in_use or schedule.user() is None:
                chosen = i
                break
        if chosen is not None and cached[chosen].replays_left and \
                cached[chosen].matches() and not config.debug:
            schedule = cached[chosen]
            schedule.replays_left -= 1
            outputs = self._replay(schedule, inputs, backprop)
        else:
            outputs, schedule = self._record(chain, args, kwargs, inputs,
                                             backprop)
            # A schedule is replayed once a second recording of its
            # signature agrees with it, and recorded again to check after
            # 8, 16, 32... replays (parameters of another dtype may well
            # need other steps: no comparison then).
            reference = cached[chosen or 0] if cached else None
            if reference is not None and reference.matches():
                _check_same_steps(self.name, reference, schedule)
                _check_same_constants(self.name, reference, schedule)
                schedule.share_nodes(reference)
                schedule.fuse()
                schedule.interval = max(8, 2 * reference.interval)
                schedule.replays_left = schedule.interval
            if chosen is None:
                cached.append(schedule)
            else:
                cached[chosen] = schedule
            if self.verbosity_level >= 1:
                print(f'static_graph: {self.name}: recorded schedule '
                      f'{cached.index(schedule)} of its signature '
                      f'({len(self.schedules)} signatures so far), '
                      f'{len(schedule.steps)} steps')
            if self.verbosity_level >= 2:
                print(schedule)
        chain.static_schedule = schedule
        return outputs

    def _replay(self, schedule, inputs, backprop):
        node = StaticScheduleFunction(schedule)
        variables = node.apply(
            tuple(inputs) + tuple([p for _, p in schedule.leaves]) +
            tuple([getattr(owner, name)
                   for owner, name in schedule.states_in]))
        if backprop:
            schedule.in_use = True
            schedule.user = weakref.ref(node)
        if schedule.states_out:
            first = len(variables) - len(schedule.states_out)
            for (owner, name), variable in zip(schedule.states_out,
                                               variables[first:]):
                setattr(owner, name, variable)
        return _fill_outputs(schedule.template, variables)

    def _record(self, chain, args, kwargs, inputs, backprop):
        if getattr(_state, 'trace', None) is not None:
            raise RuntimeError(
                f'static_graph: {self.name} was called while another static '
                f'chain was being recorded; nested application of '
                f'static_graph is not allowed: decorate the outermost chain '
                f'only')
        trace = _Trace(chain)
        input_slots = [
            trace.new_slot(x.array if isinstance(x, Variable) else x)
            for x in inputs]
        _state.trace = trace
        try:
            with trace:
                outputs = self.func(chain, *args, **kwargs)
        finally:
            _state.trace = None
        schedule = StaticSchedule(self, trace, input_slots, outputs)
        if backprop:
            outputs = _mark_end(schedule, outputs)
        return outputs, schedule

    def __reduce__(self):
        return _not_copied, ()

    def __repr__(self):
        counts = ', '.join(str(len(s)) for s in self.schedules.values())
        return (f'<ScheduleManager of {self.name}: schedules per signature: '
                f'[{counts}]>')


def replayed_parameters(link):
    """The parameters of ``link`` (and the links below it) that the
    replays of static chains among them read in the forward pass in
    progress, each once: a replay's backward computes their gradients (an
    optimizer updates those as it hands them over)."""
    if not _managers:  # no static chain at all: nothing to walk
        return []
    found = {}
    for sublink in _owners(link):
        manager = vars(sublink).get('schedule_manager')
        if manager is not None:
            for param in manager.replayed_parameters():
                found[id(param)] = param
    return list(found.values())


def _mark_end(schedule, outputs):
    """Pass the Variables of ``outputs`` through a :class:`_ForwardEnd`."""
    variables = []

    def collect(var):
        variables.append(var)
        return _Slot(len(variables) - 1)

    template = _map(outputs, collect, Variable, arrays=False)
    if not variables:
        return outputs
    node = _ForwardEnd(schedule)
    marked = node.apply(tuple(variables))
    schedule.in_use = True
    schedule.user = weakref.ref(node)
    return _map(template, lambda slot: marked[slot.index], _Slot,
                arrays=False)


def _check_same_steps(name, reference, schedule):
    """Raise :class:`DynamicGraphError` where two recordings of one
    signature applied different functions."""
    kinds = [step.kind for step in reference.steps]
    new = [step.kind for step in schedule.steps]
    if kinds == new:
        return
    for i, (a, b) in enumerate(zip(kinds, new)):
        if a is not b:
            break
    else:
        i = min(len(kinds), len(new))

    def describe(kinds):
        return getattr(kinds[i], '__qualname__', str(kinds[i])) \
            if i < len(kinds) else 'nothing more'
    raise DynamicGraphError(
        f'static_graph: {name} is not static: a call with the same input '
        f'signature as an earlier one applied {describe(new)} at step {i} '
        f'where the earlier one applied {describe(kinds)}; remove '
        f'@static_graph from a chain whose functions change between calls')


def _check_same_constants(name, reference, schedule):
    """Raise :class:`DynamicGraphError` where two recordings of one
    signature gave a function different constants: input arrays, or
    arguments of its node, that the chain's Python code computed from
    data, which a replay would not compute again."""
    def fail(what, step):
        raise DynamicGraphError(
            f'static_graph: {name} is not static: {what} of '
            f'{step.template.label} (step {reference.steps.index(step)}) is '
            f'computed outside functions from data, and it changed between '
            f'two calls; a replay would reuse the first one: compute it '
            f'with functions, or in static_code')

    for (step, i, s), (_, _, new) in zip(reference._constants,
                                         schedule._constants):
        if s != new or not _same_value(reference.table[s],
                                       schedule.table[new]):
            fail(f'input {i}', step)
    for (i, s), (j, new) in zip(reference._constant_outputs,
                                schedule._constant_outputs):
        if i != j or not _same_value(reference.table[s],
                                     schedule.table[new]):
            raise DynamicGraphError(
                f'static_graph: {name} is not static: its output {i} is '
                f'computed outside functions from data, and it changed '
                f'between two calls; a replay would return the first one: '
                f'compute it with functions, or in static_code')
    for step, new in zip(reference._node_steps, schedule._node_steps):
        fields = getattr(new.template, '__dict__', {})
        for field, value in getattr(step.template, '__dict__', {}).items():
            if not _same_value(value, fields.get(field, _same_value)):
                fail(f'the argument {field!r}', step)


def _same_value(a, b, depth=0):
    """Whether ``a`` and ``b`` (arrays, numbers, strings, lists, tuples and
    dicts of them, and plain objects holding such: see
    :func:`_holds_arguments`) are equal; other objects count as equal."""
    if _is_array(a) or _is_array(b):
        return (_is_array(a) and _is_array(b) and a.shape == b.shape
                and a.dtype == b.dtype and bool(
                    backend.get_array_module(a).array_equal(
                        a, b, equal_nan=True)))
    if isinstance(a, (list, tuple)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(_same_value(x, y, depth) for x, y in zip(a, b)))
    if isinstance(a, dict):
        return (type(a) is type(b) and a.keys() == b.keys()
                and all(_same_value(v, b[k], depth) for k, v in a.items()))
    if isinstance(a, (int, float, complex, str, numpy.generic)):
        return type(a) is type(b) and (a == b or (a != a and b != b))
    if depth < _ARGUMENT_DEPTH and type(a) is type(b) and \
            _holds_arguments(a):
        return _same_value(vars(a), vars(b), depth + 1)
    return True


# How deep argument objects nest (a node's pattern holding its indexes).
_ARGUMENT_DEPTH = 3


def _holds_arguments(obj):
    """Whether ``obj`` is a plain object that may carry arguments of a
    node in its attributes (a pattern of indexes, say): not a node, a
    Variable, a link (whose parameters a schedule reads anew on every
    run), a class, a function or a module."""
    return (hasattr(obj, '__dict__')
            and not isinstance(obj, (FunctionNode, Variable, VariableNode,
                                     type, types.FunctionType,
                                     types.MethodType, types.ModuleType))
            and not hasattr(obj, 'namedparams'))


def static_graph(*args, verbosity_level=0):
    """Decorator to mark a Chain's ``__call__`` (or ``forward``) as a static
    subgraph: its define-by-run code runs on the first calls of each
    signature, and a recorded schedule replaces it afterwards.

    The first call records a schedule; the second records again and checks
    that both applied the same functions to the same constants (else
    :class:`DynamicGraphError`); later calls replay it, but for one that
    records again to check after 8, 16, 32... replays. Within a forward
    pass (while backprop is enabled) each call of the same signature needs
    a schedule of its own, recorded on its first use.

    Use it bare (``@static_graph``) or with options
    (``@static_graph(verbosity_level=1)``). The chain's arguments may be
    Variables and arrays, alone or in lists, tuples and dicts at any depth;
    other argument values are part of the signature. Nested application
    (a static chain calling another) is not allowed. With
    ``chainer.config.use_static_graph`` False the method runs plainly.

    The chain gets the attributes ``schedule_manager`` (its
    :class:`ScheduleManager`, with :meth:`~ScheduleManager.end_forward`) and
    ``static_schedule`` (the :class:`StaticSchedule` of the last call).

    Args:
        verbosity_level (int): 0 is silent; 1 reports each new schedule;
            2 also prints its steps.
    """
    if len(args) == 1 and callable(args[0]):
        return _static_method(args[0], verbosity_level)
    if args:
        raise TypeError('static_graph: expected a method to decorate, or '
                        'keyword options only')
    return functools.partial(_static_method,
                             verbosity_level=verbosity_level)


def _static_method(func, verbosity_level):
    managers = weakref.WeakKeyDictionary()

    @functools.wraps(func)
    def wrapped(chain, *args, **kwargs):
        if not configuration.config.use_static_graph:
            return func(chain, *args, **kwargs)
        manager = managers.get(chain)
        if manager is None:
            manager = managers[chain] = ScheduleManager(
                chain, func, verbosity_level)
        chain.schedule_manager = manager
        return manager(chain, args, kwargs)
    return wrapped
