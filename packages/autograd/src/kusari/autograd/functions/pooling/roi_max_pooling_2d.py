"""Region of interest max pooling."""
import numpy

from kusari.autograd.functions.pooling import _roi


def roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Spatial region of interest (ROI) max pooling.

    Each region, scaled by ``spatial_scale`` and rounded to pixels, is
    split into ``outsize`` bins; each output is the maximum of x over its
    bin, ``-inf`` for an empty bin; the arguments and the result are those
    of :func:`~chainer.functions.roi_average_pooling_2d`.
    """
    index, weight = _roi.pooling_terms(
        'roi_max_pooling_2d', x, rois, roi_indices, outsize, spatial_scale)
    return _roi.apply_max(x, index, weight, 1, -numpy.inf)
