"""Region of interest max pooling, with regions given with their image
index (Fast R-CNN's layout)."""
from kusari.autograd.functions.pooling import _roi


def roi_pooling_2d(x, rois, outh, outw, spatial_scale):
    """Spatial region of interest (ROI) max pooling.

    Each region, scaled by ``spatial_scale`` and rounded to pixels (its
    corners inclusive), is split into ``outh x outw`` bins; each output is
    the maximum of x over its bin, 0 for an empty bin.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        rois: array ``(R, 5)`` of ``(image index, x_min, y_min, x_max,
            y_max)``.
        outh, outw (int): The bins per region along height and width.
        spatial_scale (float): Scale of the ROI coordinates onto x.

    Returns:
        Variable ``(R, c, outh, outw)``.
    """
    func_name = 'roi_pooling_2d'
    boxes, batch = _roi.check_rois_with_index(func_name, x, rois)
    outsize = _roi.outsize_pair(func_name, (outh, outw))
    scale = _roi.check_scale(func_name, spatial_scale)
    index, weight = _roi.rounded_bin_terms(x.shape, boxes, batch, outsize,
                                           scale, extra=1)
    return _roi.apply_max(x, index, weight, 1, 0)
