"""Einstein summation over the subscripts of several operands."""
import collections
import string

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array

# Sublist labels 0..51 map onto these letters; their ASCII order keeps the
# order of the integers (the implicit output is sorted).
_LETTERS = string.ascii_uppercase + string.ascii_lowercase


class EinSum(function_node.FunctionNode):
    """``numpy.einsum`` for explicit subscripts (one term per operand, no
    ellipsis, an explicit output term).

    The gradient of an operand is the einsum of ``gy`` with the other
    operands onto that operand's subscripts; its labels summed away in
    forward are broadcast back, and repeated labels (diagonals) are
    written back onto the diagonal.
    """

    def __init__(self, in_terms, out_term):
        self.in_terms = in_terms
        self.out_term = out_term

    @property
    def label(self):
        return 'einsum'

    def check_type_forward(self, in_types):
        type_check.argname(in_types,
                           tuple(f'x{i}' for i in range(len(in_types))))
        for x_type, term in zip(in_types, self.in_terms):
            type_check.expect(x_type.dtype.kind == 'f',
                              x_type.dtype == in_types[0].dtype,
                              x_type.ndim == len(term))
        first = {}
        for i, term in enumerate(self.in_terms):
            for axis, c in enumerate(term):
                if c in first:
                    j, other_axis = first[c]
                    type_check.expect(in_types[i].shape[axis] ==
                                      in_types[j].shape[other_axis])
                else:
                    first[c] = i, axis

    def forward(self, inputs):
        if len(inputs) > 1:
            self.retain_inputs(tuple(range(len(inputs))))
        self._shapes = [x.shape for x in inputs]
        xp = backend.get_array_module(*inputs)
        expression = f'{",".join(self.in_terms)}->{self.out_term}'
        y = xp.einsum(expression, *inputs, optimize=len(inputs) > 2)
        return force_array(y, inputs[0].dtype),

    def backward(self, indexes, grad_outputs):
        operands = self.get_retained_inputs()
        return tuple([self._operand_grad(k, grad_outputs[0], operands)
                      for k in indexes])

    def _operand_grad(self, k, gy, operands):
        others = [i for i in range(len(self.in_terms)) if i != k]
        term = self.in_terms[k]
        unique = ''.join(dict.fromkeys(term))
        available = set(self.out_term).union(
            *[self.in_terms[i] for i in others])
        present = ''.join(c for c in unique if c in available)
        g, = EinSum((self.out_term,) + tuple(self.in_terms[i] for i in others),
                    present).apply((gy,) + tuple(operands[i] for i in others))
        sizes = dict(zip(term, self._shapes[k]))
        if len(present) < len(unique):
            g = reshape(g, tuple(sizes[c] if c in available else 1
                                 for c in unique))
            g = broadcast_to(g, tuple(sizes[c] for c in unique))
        if len(unique) < len(term):
            g, = DiagonalEmbed(term, unique, self._shapes[k]).apply((g,))
        return g


class DiagonalEmbed(function_node.FunctionNode):
    """Zeros of ``shape`` (axes labelled ``term``, with repeats) holding
    the input (axes labelled ``unique``) on the diagonals; the adjoint of
    the einsum ``term -> unique``."""

    def __init__(self, term, unique, shape):
        self.term = term
        self.unique = unique
        self.shape = shape

    def forward(self, inputs):
        g, = inputs
        xp = backend.get_array_module(g)
        out = xp.zeros(self.shape, g.dtype)
        strides = [sum(stride for label, stride in zip(self.term, out.strides)
                       if label == c) for c in self.unique]
        diagonal = xp.lib.stride_tricks.as_strided(out, g.shape, strides)
        diagonal[...] = g
        return out,

    def backward(self, indexes, grad_outputs):
        g, = EinSum((self.term,), self.unique).apply(grad_outputs)
        return g,


def _sublist_term(func_name, sublist):
    """The subscript string of a sublist (ints in [0, 52), Ellipsis)."""
    term = []
    for item in sublist:
        if item is Ellipsis:
            term.append('...')
        elif isinstance(item, int) and 0 <= item < len(_LETTERS):
            term.append(_LETTERS[item])
        else:
            raise ValueError(f'{func_name}: a sublist holds ints in [0, 52) '
                             f'and Ellipsis; got {item!r}')
    return ''.join(term)


def _parse(operands):
    """(input terms, output term or None, operands) from either form of
    the arguments."""
    if not operands:
        raise ValueError('einsum: no subscripts and operands given')
    if isinstance(operands[0], str):
        subscripts = operands[0].replace(' ', '')
        arrays = operands[1:]
        inputs, arrow, out = subscripts.partition('->')
        out = out if arrow else None
        terms = inputs.split(',')
    else:
        items = list(operands)
        out = _sublist_term('einsum', items.pop()) if len(items) % 2 else None
        arrays = items[0::2]
        terms = [_sublist_term('einsum', s) for s in items[1::2]]
    if len(terms) != len(arrays):
        raise ValueError(f'einsum: {len(terms)} subscript terms given for '
                         f'{len(arrays)} operands')
    for term in terms + ([] if out is None else [out]):
        rest = term.replace('...', '', 1)
        if not all(c in _LETTERS for c in rest):
            raise ValueError(f'einsum: subscripts are letters with at most '
                             f'one "..." per term; got {term!r}')
    return terms, out, arrays


def _explicit(terms, out, ndims):
    """The terms with every ``...`` replaced by spare letters, and the
    output term made explicit (numpy.einsum's rules)."""
    labelled = [len(t.replace('...', '')) for t in terms]
    used = set(''.join(terms) + (out or ''))
    spare = [c for c in _LETTERS if c not in used]
    extra = []
    for i, (term, count, ndim) in enumerate(zip(terms, labelled, ndims)):
        n = ndim - count
        if n < 0 or (n > 0 and '...' not in term):
            raise ValueError(f'einsum: operand {i} has {ndim} axes but its '
                             f'subscripts {term!r} label {count}')
        extra.append(n)
    width = max(extra, default=0)
    if width > len(spare):
        raise ValueError('einsum: too many axes under "..." for the letters '
                         'left unused')
    ellipsis = ''.join(spare[:width])
    expanded = [term.replace('...', ellipsis[width - n:])
                for term, n in zip(terms, extra)]
    if out is None:
        counts = collections.Counter(''.join(terms).replace('.', ''))
        return expanded, ellipsis + ''.join(
            sorted(c for c, n in counts.items() if n == 1))
    if '...' in out:
        out = out.replace('...', ellipsis)
    elif width:
        raise ValueError('einsum: the inputs have axes under "..." but the '
                         'output subscripts have no "..."')
    appearing = set(''.join(expanded))
    for c in out:
        if c not in appearing:
            raise ValueError(f'einsum: output subscript {c!r} does not '
                             f'appear in the inputs')
    if len(set(out)) != len(out):
        raise ValueError(f'einsum: output subscripts repeat a label: '
                         f'{out!r}')
    return expanded, out


def einsum(*operands):
    """Einstein summation, as :func:`numpy.einsum`.

    Two forms are accepted: ``einsum('ij,jk->ik', a, b)`` and the sublist
    form ``einsum(a, [0, 1], b, [1, 2], [0, 2])``. ``...`` stands for
    leading axes; without an output term, the labels appearing once are
    kept, in alphabetical order. Sizes must match exactly (no
    broadcasting of length-one axes).

    Args:
        operands: the subscripts and the Variables or arrays (float, one
            dtype), in one of the two forms.

    Returns:
        Variable holding the result.
    """
    terms, out, arrays = _parse(operands)
    for i, array in enumerate(arrays):
        if not hasattr(array, 'ndim'):
            raise type_check.not_an_array('einsum', i, array)
    in_terms, out_term = _explicit(terms, out, [a.ndim for a in arrays])
    y, = EinSum(tuple(in_terms), out_term).apply(tuple(arrays))
    return y
