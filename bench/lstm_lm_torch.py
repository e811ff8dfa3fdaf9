"""The workload of lstm_lm.py in PyTorch: tokens/s.

L.LSTM is a cell that keeps its state, so the twin steps two LSTMCells
and detaches their states after each segment.
"""
import torch
import torch.nn.functional as F
from torch import nn

from _workload import (BPROP_LEN, LM_BATCH, LM_UNITS, N_VOCAB,
                       parse_quick, per_second, report,
                       segment_starts, token_stream)


class LanguageModel(nn.Module):

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(N_VOCAB, LM_UNITS)
        self.lstm1 = nn.LSTMCell(LM_UNITS, LM_UNITS)
        self.lstm2 = nn.LSTMCell(LM_UNITS, LM_UNITS)
        self.out = nn.Linear(LM_UNITS, N_VOCAB)
        self.states = None

    def forward(self, tokens):
        if self.states is None:
            self.states = [None, None]
        h = self.embed(tokens)
        for i, cell in enumerate((self.lstm1, self.lstm2)):
            self.states[i] = cell(h, self.states[i])
            h = self.states[i][0]
        return self.out(h)

    def detach_states(self):
        self.states = [tuple(s.detach() for s in state)
                       for state in self.states]


def main():
    quick = parse_quick(__doc__.split('\n')[0])
    model = LanguageModel()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    stream = torch.from_numpy(token_stream()).long()
    starts = segment_starts()

    def segment():
        start = next(starts)
        loss = 0
        for i in range(start, start + BPROP_LEN):
            loss += F.cross_entropy(model(stream[:, i]), stream[:, i + 1])
        optimizer.zero_grad()
        loss.backward()
        model.detach_states()
        optimizer.step()

    report(f'torch {torch.__version__}', 'lstm_lm',
           tokens_per_s=per_second(segment, BPROP_LEN * LM_BATCH, quick))


if __name__ == '__main__':
    main()
