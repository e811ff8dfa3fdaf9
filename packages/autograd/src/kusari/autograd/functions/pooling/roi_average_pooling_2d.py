"""Region of interest average pooling."""
from kusari.autograd.functions.pooling import _roi


class ROIAveragePooling2D(_roi.ROIGather):
    """The mean of each rounded bin: weights ``1 / count`` over its
    elements."""

    def terms(self, x_shape, rois, roi_indices):
        index, weight = _roi.rounded_bin_terms(
            x_shape, rois, roi_indices, self.outsize, self.spatial_scale)
        count = weight.sum(axis=-1, keepdims=True)
        return index, weight / count.clip(min=1)


def roi_average_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Spatial region of interest (ROI) average pooling.

    Each region, scaled by ``spatial_scale`` and rounded to pixels, is
    split into ``outsize`` bins; each output is the mean of x over its
    bin, 0 for an empty bin.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        rois: array ``(R, 4)`` of ``(y_min, x_min, y_max, x_max)``.
        roi_indices: int array ``(R,)``: the image of each region.
        outsize: int or pair ``(out_h, out_w)``: the bins per region.
        spatial_scale (float): Scale of the ROI coordinates onto x.

    Returns:
        Variable ``(R, c, out_h, out_w)``.
    """
    args = _roi.pooling_args('roi_average_pooling_2d', x, rois, roi_indices,
                             outsize, spatial_scale)
    return ROIAveragePooling2D(*args).apply((x, rois, roi_indices))[0]
