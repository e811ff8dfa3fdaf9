"""Small builders shared by the distribution tests."""
import numpy

from kusari import distributions as D


def arrays(*shape, low=0.5, high=2.0, seed=0, dtype=numpy.float32):
    """Uniform values in ``[low, high)`` of ``shape``."""
    rng = numpy.random.default_rng(seed)
    return rng.uniform(low, high, shape).astype(dtype)


def simplex(*shape, seed=0):
    """Probability vectors along the last axis of ``shape``."""
    p = arrays(*shape, seed=seed)
    return p / p.sum(axis=-1, keepdims=True)


def lower_triangular(batch, d, seed=0):
    """Cholesky factors with a positive diagonal."""
    rng = numpy.random.default_rng(seed)
    root = rng.normal(size=(batch, d, d))
    return numpy.linalg.cholesky(
        root @ root.transpose(0, 2, 1) + numpy.eye(d)).astype(numpy.float32)


def every_distribution(batch=(2, 3)):
    """One of each distribution, of batch shape ``batch``, with its event
    shape."""
    k = 4
    lead = batch[:-1]
    scalar = [
        D.Bernoulli(arrays(*batch, low=0.1, high=0.9)),
        D.Beta(arrays(*batch), arrays(*batch, seed=1)),
        D.Cauchy(arrays(*batch), arrays(*batch)),
        D.Chisquare(arrays(*batch)),
        D.Exponential(arrays(*batch)),
        D.Gamma(arrays(*batch), arrays(*batch)),
        D.Geometric(arrays(*batch, low=0.1, high=0.9)),
        D.Gumbel(arrays(*batch), arrays(*batch)),
        D.Laplace(arrays(*batch), arrays(*batch)),
        D.LogNormal(arrays(*batch), arrays(*batch)),
        D.Normal(arrays(*batch), arrays(*batch)),
        D.Pareto(arrays(*batch), arrays(*batch)),
        D.Poisson(arrays(*batch)),
        D.Uniform(low=arrays(*batch, high=1), high=arrays(*batch, low=1.5)),
        D.Categorical(simplex(*batch, k)),
    ]
    vector = [
        D.Dirichlet(arrays(*batch, k)),
        D.OneHotCategorical(simplex(*batch, k)),
        D.MultivariateNormal(
            arrays(*batch, k),
            scale_tril=lower_triangular(int(numpy.prod(batch)), k).reshape(
                batch + (k, k))),
    ]
    independent = D.Independent(D.Normal(arrays(*lead, batch[-1]),
                                         arrays(*lead, batch[-1])))
    return ([(d, ()) for d in scalar] + [(d, (k,)) for d in vector]
            + [(independent, (batch[-1],))])
