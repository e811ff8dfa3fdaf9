"""Region of interest average align (RoIAlign)."""
from kusari.autograd.functions.pooling import _roi


class ROIAverageAlign2D(_roi.ROIGather):
    """The mean of each bin's bilinear samples."""

    def terms(self, x_shape, rois, roi_indices):
        index, weight, count = _roi.bilinear_terms(
            x_shape, rois, roi_indices, self.outsize, self.spatial_scale,
            self.sampling_ratio)
        return index, weight / count.reshape(-1, 1, 1, 1, 1)


def roi_average_align_2d(x, rois, roi_indices, outsize, spatial_scale,
                         sampling_ratio=None):
    """Spatial region of interest (ROI) average align.

    Each region, scaled by ``spatial_scale`` (not rounded; at least one
    pixel long), is split into ``outsize`` bins; each output is the mean
    of x sampled bilinearly on a regular grid of points in its bin
    (samples outside the image count as 0).

    The arguments and the result are those of
    :func:`~chainer.functions.roi_average_pooling_2d`, with one more:
    ``sampling_ratio``, an int or a pair: the samples per bin along each
    axis; None for ``ceil(region length / bins)``.
    """
    args = _roi.align_args('roi_average_align_2d', x, rois, roi_indices,
                           outsize, spatial_scale, sampling_ratio)
    return ROIAverageAlign2D(*args).apply((x, rois, roi_indices))[0]
