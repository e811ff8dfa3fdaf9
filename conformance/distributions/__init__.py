"""Conformance checks of kusari.distributions: values against scipy.stats,
gradients against finite differences, KL divergences against Monte Carlo,
sample statistics, and the VAE example learning on real data."""
