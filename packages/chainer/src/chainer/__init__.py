"""Chainer's API on Kusari: ``import chainer`` as in Chainer v7."""
