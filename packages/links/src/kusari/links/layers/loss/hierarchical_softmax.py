"""Hierarchical softmax over a binary tree."""
import heapq
import itertools
import operator

import numpy

from kusari.array import backend
from kusari.array import initializers
from kusari.autograd.functions.activation.softplus import softplus
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.expand_dims import expand_dims
from kusari.autograd.functions.connection.embed_id import embed_id
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.variable import as_array
from kusari.links import link
from kusari.links.layers.connection import _layer


def _tree_paths(tree):
    """``{word: [(node, sign), ...]}``: the internal nodes (numbered in
    pre-order) from the root to each leaf, with sign +1 for a left turn
    and -1 for a right one."""
    paths = {}
    counter = itertools.count()

    def visit(node, path):
        if isinstance(node, tuple):
            if len(node) != 2:
                raise ValueError(
                    f'BinaryHierarchicalSoftmax: every internal node of the '
                    f'tree must have two children; got {node!r}')
            index = next(counter)
            visit(node[0], path + [(index, 1.0)])
            visit(node[1], path + [(index, -1.0)])
            return
        try:
            word = operator.index(node)
        except TypeError:
            raise TypeError(
                f'BinaryHierarchicalSoftmax: the leaves of the tree must be '
                f'word ids (ints); got {node!r}') from None
        if word < 0 or word in paths:
            raise ValueError(
                f'BinaryHierarchicalSoftmax: leaf {word} is negative or '
                f'appears twice')
        paths[word] = path

    visit(tree, [])
    return paths, next(counter)


class BinaryHierarchicalSoftmax(link.Link):
    """Hierarchical softmax over a binary tree (Morin and Bengio, 2005).

    A word's probability is the product, along the path from the root to
    its leaf, of ``sigmoid(+-w_node . x)`` (``+`` where the path turns
    left), so the loss of ``(x, t)`` is ``sum softplus(-+w_node . x)``
    over that path: logarithmic in the vocabulary size.

    Args:
        in_size (int): Input size.
        tree: A binary tree of tuples ``(left, right)`` whose leaves are
            word ids, e.g. from :meth:`create_huffman_tree`.
        dtype: dtype of ``W`` (None: the configured dtype).

    Attributes:
        W (~kusari.autograd.Parameter): One row per internal node,
            uniform in [-1, 1).
    """

    def __init__(self, in_size, tree, dtype=None):
        in_size = _layer.positive_int('BinaryHierarchicalSoftmax',
                                      'in_size', in_size)
        paths, n_nodes = _tree_paths(tree)
        super().__init__()
        depth = max(len(path) for path in paths.values())
        n_words = max(paths) + 1
        # Padded per-word tables; sign 0 marks padding and unknown words.
        nodes = numpy.zeros((n_words, depth), numpy.int32)
        signs = numpy.zeros((n_words, depth), numpy.float32)
        for word, path in paths.items():
            if path:
                nodes[word, :len(path)], signs[word, :len(path)] = zip(*path)
        self._known = numpy.zeros(n_words, bool)
        self._known[list(paths)] = True
        self._nodes, self._signs = nodes, signs
        with self.init_scope():
            self.W = _layer.parameter(initializers.Uniform(1, dtype),
                                      (max(n_nodes, 1), in_size))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self._nodes = visitor.visit_array(self._nodes)
        self._signs = visitor.visit_array(self._signs)
        self._known = visitor.visit_array(self._known)

    @staticmethod
    def create_huffman_tree(word_counts):
        """The Huffman tree of ``word_counts`` (a dict ``word -> count``):
        frequent words get short paths. Ties are broken by the order of
        the dict."""
        if not word_counts:
            raise ValueError('create_huffman_tree: word_counts is empty')
        # (count, first insertion index, subtree): the index breaks ties
        # and keeps subtrees from being compared.
        heap = [(count, uid, word)
                for uid, (word, count) in enumerate(word_counts.items())]
        heapq.heapify(heap)
        while len(heap) > 1:
            count1, uid1, left = heapq.heappop(heap)
            count2, uid2, right = heapq.heappop(heap)
            heapq.heappush(heap, (count1 + count2, min(uid1, uid2),
                                  (left, right)))
        return heap[0][2]

    def forward(self, x, t):
        """The summed loss of ``x`` ``(B, in_size)`` for the words ``t``
        ``(B,)``."""
        t = as_array(t)
        xp = backend.get_array_module(t)
        if t.ndim != 1 or t.dtype.kind not in 'iu' or \
                t.shape[0] != x.shape[0]:
            raise ValueError(
                f'{self._describe()}: t must be an int array (B,) with '
                f'B = {x.shape[0]}; got {t.dtype} of shape {t.shape}')
        known = (t >= 0) & (t < len(self._known))
        if not bool(xp.all(known)) or not bool(xp.all(self._known[t])):
            raise ValueError(f'{self._describe()}: t holds word ids that '
                             f'are not leaves of the tree')
        rows = embed_id(self._nodes[t], self.W)
        scores = sum_(rows * broadcast_to(expand_dims(x, 1), rows.shape),
                      axis=2)
        signs = self._signs[t].astype(scores.dtype)
        mask = (signs != 0).astype(scores.dtype)
        return sum_(softplus(-signs * scores) * mask)
