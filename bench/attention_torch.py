"""The workload of attention.py in PyTorch, the same operations spelled
out (no fused attention kernel): iterations/s."""
import torch
import torch.nn.functional as F
from torch import nn

from _workload import (ATTENTION_BATCH, ATTENTION_HEADS, ATTENTION_HIDDEN,
                       ATTENTION_LENGTH, ATTENTION_UNITS, N_CLASS,
                       classification_batch, parse_quick,
                       report_torch_classifier)


class EncoderBlock(nn.Module):

    def __init__(self):
        super().__init__()
        units = ATTENTION_UNITS
        self.qkv = nn.Linear(units, 3 * units)
        self.out = nn.Linear(units, units)
        self.norm1 = nn.LayerNorm(units)
        self.ff1 = nn.Linear(units, ATTENTION_HIDDEN)
        self.ff2 = nn.Linear(ATTENTION_HIDDEN, units)
        self.norm2 = nn.LayerNorm(units)
        self.fc = nn.Linear(units, N_CLASS)

    def attend(self, x):
        batch, length, units = x.shape
        heads, size = ATTENTION_HEADS, units // ATTENTION_HEADS
        qkv = self.qkv(x).reshape(batch, length, 3, heads, size)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)
        weights = torch.softmax(q @ k.transpose(-1, -2) * size ** -0.5,
                                dim=-1)
        h = (weights @ v).transpose(1, 2).reshape(batch, length, units)
        return self.out(h)

    def forward(self, x):
        h = self.norm1(x + self.attend(x))
        h = self.norm2(h + self.ff2(F.relu(self.ff1(h))))
        return self.fc(h.mean(dim=1))


def main():
    quick = parse_quick(__doc__.split('\n')[0])
    model = EncoderBlock()
    optimizer = torch.optim.Adam(model.parameters())
    batch = [torch.from_numpy(a) for a in classification_batch(
        ATTENTION_BATCH, (ATTENTION_LENGTH, ATTENTION_UNITS))]
    report_torch_classifier(torch, 'attention', model, optimizer, batch,
                            quick)


if __name__ == '__main__':
    main()
