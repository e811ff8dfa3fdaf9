"""Patch extraction (im2col) and its adjoint (col2im) for convolutions.

A *col* array holds, for every output position of a convolution, the input
patch it reads: shape ``(n, c, k_1, ..., k_N, out_1, ..., out_N)`` for an
input ``(n, c, d_1, ..., d_N)``. It is built as one strided view of the
(padded) input and copied once, so a convolution is that copy plus one
matrix product. ``col2im`` sums patches back into an image, with one
strided slice addition per kernel offset. Both can also put the batch axis
last, ``(c, k_1, ..., out_N, n)``, so that their copies and additions run
over ``n`` times longer contiguous stretches. Both work on NumPy and CuPy
arrays alike (CuPy has the same stride tricks).
"""
import itertools

from kusari.array import backend
from kusari.autograd.utils import _workspace


def get_conv_outsize(size, k, s, p, cover_all=False, d=1):
    """Output length of a convolution along one axis.

    Args:
        size (int): Input length.
        k (int): Kernel length.
        s (int): Stride.
        p (int): Padding on each side.
        cover_all (bool): Add output positions until every input element
            is covered by some window (the last windows may extend past
            the padding).
        d (int): Dilation.

    Returns:
        int: ``(size + 2p - dk) // s + 1`` with ``dk = (k - 1) d + 1``
        (``s - 1`` added to the numerator when ``cover_all``).
    """
    dk = k + (k - 1) * (d - 1)
    if cover_all:
        return (size + p * 2 - dk + s - 1) // s + 1
    return (size + p * 2 - dk) // s + 1


def get_deconv_outsize(size, k, s, p, cover_all=False, d=1):
    """Output length of a deconvolution (transposed convolution) along one
    axis: the input length of the convolution it transposes.

    Args: as :func:`get_conv_outsize`.

    Returns:
        int: ``s (size - 1) + dk - 2p`` with ``dk = (k - 1) d + 1``
        (``s - 1`` less when ``cover_all``).
    """
    dk = (k - 1) * d + 1
    if cover_all:
        return s * (size - 1) + dk - s + 1 - 2 * p
    return s * (size - 1) + dk - 2 * p


def _span(out, k, s, d):
    """Input length a window sweep reads: last window's last element + 1."""
    return (out - 1) * s + (k - 1) * d + 1


def outsizes(dims, ksize, stride, pad, cover_all=False, dilate=None):
    """Output lengths of a convolution of spatial lengths ``dims`` (see
    :func:`get_conv_outsize`); ``dilate`` None means no dilation."""
    if dilate is None:
        dilate = (1,) * len(dims)
    return tuple(
        get_conv_outsize(size, k, s, p, cover_all, d)
        for size, k, s, p, d in zip(dims, ksize, stride, pad, dilate))


def im2col(img, ksize, stride, pad, pval=0, cover_all=False, dilate=None,
           outsize=None, batch_last=False):
    """Patches of ``img`` for an N-dimensional convolution.

    Args:
        img: Array ``(n, c, d_1, ..., d_N)``, NumPy or CuPy.
        ksize, stride, pad: Tuples of N ints.
        pval: Value of the padding.
        cover_all (bool): See :func:`get_conv_outsize`.
        dilate: Tuple of N ints, or None for no dilation.
        outsize: Tuple of N output lengths, or None to compute them.
        batch_last (bool): Put the batch axis last (see below).

    Returns:
        C-contiguous array ``(n, c, k_1, ..., k_N, out_1, ..., out_N)``,
        or ``(c, k_1, ..., k_N, out_1, ..., out_N, n)`` with
        ``batch_last``. The copy of the patches runs along the last axes;
        with the batch last, its contiguous runs are ``n`` times longer
        than one output row, which pays off when the rows are short.
        A large NumPy one comes from a pool of reused arrays (see
        :mod:`kusari.autograd.utils._workspace`); where the patches need
        no copy (a 1x1 kernel, stride 1, no padding), a view of ``img``.
    """
    patches = patch_view(img, ksize, stride, pad, pval, cover_all, dilate,
                         outsize, batch_last)
    if patches.flags.c_contiguous:
        return patches
    xp = backend.get_array_module(img)
    col = _workspace.empty(xp, patches.shape, patches.dtype)
    col[...] = patches
    return col


def patch_view(img, ksize, stride, pad, pval=0, cover_all=False,
               dilate=None, outsize=None, batch_last=False):
    """The patches of :func:`im2col` (same arguments) as a strided view,
    not copied: of ``img`` itself where it needs no padding and keeps its
    batch axis first, else of a padded (or transposed) copy."""
    ndim = len(ksize)
    if dilate is None:
        dilate = (1,) * ndim
    dims = img.shape[2:]
    if outsize is None:
        outsize = outsizes(dims, ksize, stride, pad, cover_all, dilate)
    # Windows may read past the far padding (cover_all, or a given outsize):
    # pad enough that every window lies inside the array.
    after = tuple(
        max(p, _span(out, k, s, d) - size - p)
        for size, out, k, s, p, d in zip(
            dims, outsize, ksize, stride, pad, dilate))
    img = _padded(img, pad, after, pval, batch_last)
    xp = backend.get_array_module(img)
    lead = 1 if batch_last else 2
    strides = img.strides
    spatial = strides[lead:lead + ndim]
    return xp.lib.stride_tricks.as_strided(
        img,
        img.shape[:lead] + tuple(ksize) + tuple(outsize)
        + img.shape[lead + ndim:],
        strides[:lead]
        + tuple(st * d for st, d in zip(spatial, dilate))
        + tuple(st * s for st, s in zip(spatial, stride))
        + strides[lead + ndim:])


def _padded(img, before, after, pval, batch_last):
    """``img`` padded with ``pval`` (``before`` and ``after`` each spatial
    axis); with ``batch_last``, a C-contiguous copy with the batch axis
    last (so that the patch copy reads long contiguous runs)."""
    xp = backend.get_array_module(img)
    if batch_last:
        img = xp.moveaxis(img, 0, -1)
    if not any(before) and not any(after):
        return xp.ascontiguousarray(img) if batch_last else img
    lead = 1 if batch_last else 2
    dims = img.shape[lead:lead + len(before)]
    shape = img.shape[:lead] + tuple(
        size + b + a for size, b, a in zip(dims, before, after)) \
        + img.shape[lead + len(before):]
    out = xp.full(shape, pval, dtype=img.dtype)
    out[_spatial_index(lead, before, dims)] = img
    return out


def _spatial_index(lead, starts, lengths):
    """Index of the spatial slices ``start:start + length`` of an array
    with ``lead`` axes before its spatial ones."""
    return (slice(None),) * lead + tuple(
        slice(b, b + size) for size, b in zip(lengths, starts))


def col2im(col, stride, pad, dims, dilate=None, batch_last=False):
    """Sum patches back into an image: the adjoint of :func:`im2col`.

    Args:
        col: Array ``(n, c, k_1, ..., k_N, out_1, ..., out_N)``, or ``(c,
            k_1, ..., k_N, out_1, ..., out_N, n)`` with ``batch_last``.
        stride, pad: Tuples of N ints.
        dims: Tuple of the N image lengths (without padding).
        dilate: Tuple of N ints, or None for no dilation.
        batch_last (bool): The layout of ``col`` (the image returned is
            ``(n, c, ...)`` either way).

    Returns:
        C-contiguous array ``(n, c, d_1, ..., d_N)`` where each element is
        the sum of the patch entries that read it.
    """
    ndim = len(dims)
    if dilate is None:
        dilate = (1,) * ndim
    lead = 1 if batch_last else 2
    ksize = col.shape[lead:lead + ndim]
    outsize = col.shape[lead + ndim:lead + 2 * ndim]
    padded = tuple(
        max(size + 2 * p, _span(out, k, s, d))
        for size, out, k, s, p, d in zip(
            dims, outsize, ksize, stride, pad, dilate))
    xp = backend.get_array_module(col)
    img = xp.zeros(col.shape[:lead] + padded + col.shape[lead + 2 * ndim:],
                   dtype=col.dtype)
    whole = (slice(None),) * lead
    for offset in itertools.product(*[range(k) for k in ksize]):
        window = whole + tuple(
            slice(i * d, i * d + (out - 1) * s + 1, s)
            for i, out, s, d in zip(offset, outsize, stride, dilate))
        img[window] += col[whole + offset]
    if any(pad) or padded != tuple(dims):
        img = img[_spatial_index(lead, pad, dims)]
    if batch_last:
        img = xp.moveaxis(img, -1, 0)
    return xp.ascontiguousarray(img)


def im2col_cpu(img, kh, kw, sy, sx, ph, pw, pval=0, cover_all=False, dy=1,
               dx=1, out_h=None, out_w=None):
    """Patches of a NumPy image ``(n, c, h, w)``: ``(n, c, kh, kw, out_h,
    out_w)``. See :func:`im2col`."""
    outsize = None if out_h is None or out_w is None else (out_h, out_w)
    return im2col(img, (kh, kw), (sy, sx), (ph, pw), pval, cover_all,
                  (dy, dx), outsize)


def im2col_gpu(img, kh, kw, sy, sx, ph, pw, cover_all=False, dy=1, dx=1,
               out_h=None, out_w=None):
    """Patches of a CuPy image ``(n, c, h, w)``, zero padded: ``(n, c, kh,
    kw, out_h, out_w)``. See :func:`im2col`."""
    return im2col_cpu(img, kh, kw, sy, sx, ph, pw, 0, cover_all, dy, dx,
                      out_h, out_w)


def col2im_cpu(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """Image ``(n, c, h, w)`` from patches ``(n, c, kh, kw, out_h, out_w)``
    (the adjoint of :func:`im2col_cpu`). See :func:`col2im`."""
    return col2im(col, (sy, sx), (ph, pw), (h, w), (dy, dx))


def col2im_gpu(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """CuPy version of :func:`col2im_cpu` (the same code)."""
    return col2im_cpu(col, sy, sx, ph, pw, h, w, dy, dx)
