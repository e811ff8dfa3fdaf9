"""Region of interest max align."""
import numpy

from kusari.autograd.functions.pooling import _roi


def roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale,
                     sampling_ratio=None):
    """Spatial region of interest (ROI) max align.

    As :func:`roi_average_align_2d`, but each output is the largest of
    the bilinear samples of its bin that lie in the image (``-inf`` if
    none does).

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        rois: array ``(R, 4)`` of ``(y_min, x_min, y_max, x_max)``.
        roi_indices: int array ``(R,)``: the image of each region.
        outsize: int or pair ``(out_h, out_w)``: the bins per region.
        spatial_scale (float): Scale of the ROI coordinates onto x.
        sampling_ratio: int or pair: samples per bin along each axis;
            None for ``ceil(region length / bins)``.

    Returns:
        Variable ``(R, c, out_h, out_w)``.
    """
    func_name = 'roi_max_align_2d'
    rois, batch = _roi.check_rois(func_name, x, rois, roi_indices)
    outsize = _roi.outsize_pair(func_name, outsize)
    scale = _roi.check_scale(func_name, spatial_scale)
    ratio = _roi.sampling_pair(func_name, sampling_ratio)
    index, weight, _ = _roi.bilinear_terms(x.shape, rois, batch, outsize,
                                           scale, ratio)
    return _roi.apply_max(x, index, weight, 4, -numpy.inf)
