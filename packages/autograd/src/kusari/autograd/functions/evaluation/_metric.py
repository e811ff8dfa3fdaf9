"""The shared shape of the evaluation functions: checked array inputs,
and results computed as static code and wrapped as Variables that record
no graph (metrics are not differentiable)."""
from kusari.autograd.graph_optimizations.static_graph import static_code
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import Variable
from kusari.autograd.variable import as_array


def checked_arrays(func_name, names, inputs, check):
    """The arrays of ``inputs`` (Variables or arrays), after
    ``check(in_types)`` passed; the InvalidType raised otherwise names the
    function and its arguments."""
    arrays = tuple(as_array(x) for x in inputs)
    for name, array in zip(names, arrays):
        if not (hasattr(array, 'shape') and hasattr(array, 'dtype')):
            raise type_check.not_an_array(func_name, name, array)
    type_check.check_types(check, arrays, func_name, names)
    return arrays


def computed(compute, *arrays, **options):
    """The results of ``compute(*arrays, **options)`` (an array or a tuple
    of them) as Variables needing no gradient. It runs as static code, so
    that a static_graph replay computes the metric of that call's arrays
    rather than returning the recorded one."""
    return _each(_run(compute, arrays, options),
                 lambda r: Variable(r, requires_grad=False))


@static_code
def _run(compute, arrays, options):
    """``compute``'s results, each made an array (a 0-d result stays
    one), in its own dtype."""
    return _each(compute(*arrays, **options), force_array)


def _each(results, make):
    """``make`` of each of a tuple of results, or of the one result."""
    if isinstance(results, tuple):
        return tuple([make(r) for r in results])
    return make(results)


def expect_class_scores(y_type, t_type):
    """y ``(N, C, ...)`` float scores for labels t ``(N, ...)``."""
    type_check.expect(y_type.dtype.kind == 'f', t_type.dtype.kind == 'i',
                      y_type.ndim == t_type.ndim + 1)
    type_check.expect(y_type.shape[0] == t_type.shape[0],
                      y_type.shape[2:] == t_type.shape[1:])
