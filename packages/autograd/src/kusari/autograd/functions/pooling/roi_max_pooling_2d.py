"""Region of interest max pooling."""
import numpy

from kusari.autograd.functions.pooling import _roi


def roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Spatial region of interest (ROI) max pooling.

    Each region, scaled by ``spatial_scale`` and rounded to pixels, is
    split into ``outsize`` bins; each output is the maximum of x over its
    bin, ``-inf`` for an empty bin.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        rois: array ``(R, 4)`` of ``(y_min, x_min, y_max, x_max)``.
        roi_indices: int array ``(R,)``: the image of each region.
        outsize: int or pair ``(out_h, out_w)``: the bins per region.
        spatial_scale (float): Scale of the ROI coordinates onto x.

    Returns:
        Variable ``(R, c, out_h, out_w)``.
    """
    func_name = 'roi_max_pooling_2d'
    rois, batch = _roi.check_rois(func_name, x, rois, roi_indices)
    outsize = _roi.outsize_pair(func_name, outsize)
    scale = _roi.check_scale(func_name, spatial_scale)
    index, weight = _roi.rounded_bin_terms(x.shape, rois, batch, outsize,
                                           scale)
    return _roi.apply_max(x, index, weight, 1, -numpy.inf)
