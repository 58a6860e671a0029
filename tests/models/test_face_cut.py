"""models.face_cut: a face network's file carries the cut from which it calls a find no face."""

from __future__ import annotations

import pytest
import torch

from models import face_cut, train_faces
from models.face_net import FaceNet
from models.face_recipe import no_face_cut
from models.metadata import metadata_of, set_metadata
from vision.faces import NOT_A_FACE, FaceClassifier, ModelFileError


@pytest.fixture
def network(tmp_path):
    torch.manual_seed(0)
    path = tmp_path / "faces-w8.onnx"
    train_faces.export(FaceNet(len(train_faces.LABELS), width=8).eval(), path, {"seed": 5})
    return path


def graph_of(path):
    import onnx

    return onnx.load(str(path)).graph.SerializeToString()


def test_a_network_reads_at_the_cut_its_file_carries(network, tmp_path):
    # fresh from training it has no cut fitted yet, and reads at the default one
    assert FaceClassifier(network, data_dir=tmp_path / "none").not_a_face == NOT_A_FACE
    graph, before = graph_of(network), metadata_of(network)
    assert face_cut.main([str(network), "--not-a-face", "0.85"]) == 0
    assert FaceClassifier(network, data_dir=tmp_path / "none").not_a_face == 0.85
    assert graph_of(network) == graph  # the network itself is untouched
    assert metadata_of(network) == before | {"not_a_face": "0.85"}
    face_cut.set_not_a_face(network, 0.6)  # fitted again: the new cut replaces the old
    assert FaceClassifier(network, data_dir=tmp_path / "none").not_a_face == 0.6


@pytest.mark.parametrize("cut", ["0", "1.2", "-0.5"])
def test_a_cut_that_is_no_probability_is_refused_and_the_file_kept(network, cut, capsys):
    before = network.read_bytes()
    assert face_cut.main([str(network), "--not-a-face", cut]) == 2
    assert "--not-a-face is a probability" in capsys.readouterr().err
    assert network.read_bytes() == before


def test_a_file_that_is_no_face_network_is_refused_by_name(tmp_path, capsys):
    corrupt = tmp_path / "faces.onnx"
    corrupt.write_bytes(b"not an onnx model")
    assert face_cut.main([str(corrupt), "--not-a-face", "0.8"]) == 2
    assert str(corrupt) in capsys.readouterr().err
    assert corrupt.read_bytes() == b"not an onnx model"


@pytest.mark.parametrize("cut", ["high", "1.5"])
def test_a_file_whose_cut_is_unreadable_is_named(network, cut, tmp_path):
    import onnx

    proto = onnx.load(str(network))
    set_metadata(proto, metadata_of(network) | {"not_a_face": cut})
    onnx.save(proto, str(network))
    with pytest.raises(ModelFileError) as error:
        FaceClassifier(network, data_dir=tmp_path / "none")
    assert str(network) in str(error.value) and cut in str(error.value)


def test_the_shipped_networks_carry_the_cuts_fitted_to_them(tmp_path):
    # the camera's network (session 75) calls washed-out dice no face at 0.7-0.94 in some
    # frames, and at 0.7 the d6 clip's rolls each lost one (docs/vision.md, "The face
    # check's cut"); photos keep session 51's 0.7
    from vision.faces import DEFAULT_MODEL, FAST_MODEL

    assert FaceClassifier(FAST_MODEL, data_dir=tmp_path).not_a_face == 0.8
    assert FaceClassifier(DEFAULT_MODEL, data_dir=tmp_path).not_a_face == NOT_A_FACE == 0.7


def test_the_card_names_the_cut_the_network_reads_at(network):
    assert "No no-face cut is recorded" in no_face_cut(network)
    assert f"`none` at {NOT_A_FACE} or more" in no_face_cut(network)
    face_cut.set_not_a_face(network, 0.85)
    assert "`none` at\n  0.85 or more: the cut in its metadata" in no_face_cut(network)
