"""Small networks for the model tests."""

import torch
from torch.nn import functional as F

from models import train_faces
from models.face_net import FaceNet


def face_net_as_if_trained(width: int = 16) -> FaceNet:
    """A seeded FaceNet whose batch norms do something, as after training (statistics, scales
    and shifts away from the identity), so an export has norms to fold."""
    torch.manual_seed(0)
    model = FaceNet(len(train_faces.LABELS), width=width)
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.uniform_(-0.2, 0.2)
            module.running_var.uniform_(0.5, 2.0)
            module.weight.data.uniform_(0.5, 1.5)
            module.bias.data.uniform_(-0.2, 0.2)
    return model


def softened(model, x: torch.Tensor) -> torch.Tensor:
    """``model``'s readings of ``x`` as distillation softens them (train_faces.DISTIL_TEMPERATURE)."""
    with torch.no_grad():
        return F.softmax(model(x)[0] / train_faces.DISTIL_TEMPERATURE, dim=1)


def gap_to(taught: torch.Tensor, student, x: torch.Tensor) -> float:
    """How far ``student``'s softened readings of ``x`` lie from ``taught`` (KL divergence),
    the distillation loss's own measure."""
    with torch.no_grad():
        guess = F.log_softmax(student(x)[0] / train_faces.DISTIL_TEMPERATURE, dim=1)
    return F.kl_div(guess, taught, reduction="batchmean").item()
