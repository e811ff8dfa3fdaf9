"""Region of interest max align."""
import numpy

from kusari.autograd.functions.pooling import _roi


def roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale,
                     sampling_ratio=None):
    """Spatial region of interest (ROI) max align.

    As :func:`roi_average_align_2d`, but each output is the largest of
    the bilinear samples of its bin that lie in the image (``-inf`` if
    none does).
    """
    index, weight, _ = _roi.align_terms(
        'roi_max_align_2d', x, rois, roi_indices, outsize, spatial_scale,
        sampling_ratio)
    return _roi.apply_max(x, index, weight, 4, -numpy.inf)
