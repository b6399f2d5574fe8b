"""Every data set Bunch of sklearn_xai.datasets names its features and target
``data`` and ``target`` (scikit-learn's spelling), never ``X`` / ``y``."""

import numpy as np
import pytest

import sklearn_xai.datasets as datasets

# Loaders that read a file the repository does not ship (licence): each
# raises FileNotFoundError without it, so there is no Bunch to check.
_NEEDS_USER_FILE = {"load_compas", "load_framingham", "load_gmsc", "load_heloc",
                    "load_pima", "load_wine_quality"}


def _real_xy():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    return X, X @ [1.0, -1.0, 0.5]


def _openml_file(folder):
    import pandas as pd

    path = folder / "export.csv"
    pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [0.5, 0.1, 0.2, 0.3],
                  "label": ["no", "yes", "no", "yes"]}).to_csv(path, index=False)
    return path


def _openxai_files(folder):
    """A pair of files in OpenXAI's released layout (numeric features, the
    label column last) for its "heloc" data set."""
    import pandas as pd

    rng = np.random.default_rng(0)
    for part in ("train", "test"):
        frame = pd.DataFrame(rng.normal(size=(12, 3)), columns=["f0", "f1", "f2"])
        frame[datasets.OPENXAI_LABELS["heloc"]] = np.arange(12) % 2
        frame.to_csv(folder / f"heloc-{part}.csv", index=False)
    return folder


def _ts_file(folder):
    path = folder / "Tiny_TRAIN.ts"
    path.write_text("@problemName Tiny\n@classLabel true a b\n@data\n1,2:a\n3,4:b\n")
    return path


def _text_file(folder):
    path = folder / "texts.csv"
    path.write_text("text,label\ngood film,pos\nbad film,neg\n")
    return path


# Cheap calls (tiny sizes) of every public generator and loader that
# returns a data set; ``tmp`` is a folder for loaders that need a file.
_CALLS = {
    "make_gaussian_linear": lambda tmp: datasets.make_gaussian_linear(10, 3, random_state=0),
    "make_gaussian_nonlinear_additive":
        lambda tmp: datasets.make_gaussian_nonlinear_additive(10, 3, random_state=0),
    "make_gaussian_piecewise_constant":
        lambda tmp: datasets.make_gaussian_piecewise_constant(10, 3, random_state=0),
    "make_mixture_linear": lambda tmp: datasets.make_mixture_linear(10, 3, random_state=0),
    "make_mixture_nonlinear_additive":
        lambda tmp: datasets.make_mixture_nonlinear_additive(10, 3, random_state=0),
    "make_mixture_piecewise_constant":
        lambda tmp: datasets.make_mixture_piecewise_constant(10, 3, random_state=0),
    "make_linear_attribution":
        lambda tmp: datasets.make_linear_attribution(10, 3, random_state=0),
    "make_synthgauss": lambda tmp: datasets.make_synthgauss(20, 4, n_clusters=2,
                                                           random_state=0),
    "make_tetrominoes": lambda tmp: datasets.make_tetrominoes(40, random_state=0),
    "make_timeseries_classification": lambda tmp: datasets.make_timeseries_classification(
        10, n_timesteps=12, window=3, random_state=0),
    "load_ucr_uea": lambda tmp: datasets.load_ucr_uea(_ts_file(tmp)),
    "make_text_classification":
        lambda tmp: datasets.make_text_classification(10, random_state=0),
    "load_text_corpus": lambda tmp: datasets.load_text_corpus(_text_file(tmp)),
    "make_unit_test": lambda tmp: datasets.make_unit_test("xor", 10, random_state=0),
    "make_gaussian_copy": lambda tmp: datasets.make_gaussian_copy(
        *_real_xy(), n_samples=10, test_size=0.25, random_state=0),
    "make_wine_simulation": lambda tmp: datasets.make_wine_simulation(
        *_real_xy(), n_samples=10, random_state=0),
    "load_adult": lambda tmp: datasets.load_adult(),
    "load_breast_cancer": lambda tmp: datasets.load_breast_cancer(),
    "load_diabetes": lambda tmp: datasets.load_diabetes(),
    "load_diamonds": lambda tmp: datasets.load_diamonds(),
    "load_german_credit": lambda tmp: datasets.load_german_credit(),
    "load_wine": lambda tmp: datasets.load_wine(),
    "load_openml_export":
        lambda tmp: datasets.load_openml_export(_openml_file(tmp), target="label"),
    "load_openxai_adult": lambda tmp: datasets.load_openxai_adult(max_samples=200),
    "load_openxai_csv": lambda tmp: datasets.load_openxai_csv("heloc", _openxai_files(tmp)),
    "two_draws": lambda tmp: datasets.two_draws(n_train=6, n_test=4, random_state=0,
                                                n_features=3),
    "minmax_scaled": lambda tmp: datasets.minmax_scaled(
        params={"n_samples": 20, "n_features": 4, "n_clusters": 2},
        with_test_rows=True, random_state=0),
    "preprocessed": lambda tmp: datasets.preprocessed(
        "load_german_credit", max_samples=100, random_state=0),
}

_PUBLIC = sorted(name for name in datasets.__all__
                 if name.startswith(("make_", "load_"))
                 or name in ("two_draws", "minmax_scaled", "preprocessed"))


def test_every_public_generator_and_loader_is_checked():
    # A new generator or loader must be added to _CALLS (or be a loader
    # of a user file): this keeps the key check below complete.
    assert set(_PUBLIC) == set(_CALLS) | _NEEDS_USER_FILE


# The loaders of user files (_NEEDS_USER_FILE) are not called here: the
# repository ships none of their files.  They build their Bunch with the same
# datasets._real._bunch as load_german_credit and load_adult (checked below),
# and tests/datasets/test_real.py loads them from small files it writes.
@pytest.mark.parametrize("name", sorted(_CALLS))
def test_data_set_bunch_uses_data_and_target(name, tmp_path):
    bunch = _CALLS[name](tmp_path)
    assert "data" in bunch and "target" in bunch
    assert len(bunch["data"]) == len(bunch["target"]) > 0
    old = {"X", "y", "X_test", "y_test", "X_train", "y_train", "X_real", "y_real"}
    assert not old & set(bunch), f"{name} still returns {sorted(old & set(bunch))}"


def test_split_parts_of_the_simulation_are_data_test_and_target_test():
    X, y = _real_xy()
    sim = datasets.make_gaussian_copy(X, y, n_samples=10, test_size=0.25,
                                      split_random_state=0, random_state=0)
    # The real rows split as make_gaussian_copy documents (train_test_split
    # with split_random_state), standardised with the mean and std of all
    # rows, computed directly from the input arrays.
    from sklearn.model_selection import train_test_split

    train, test = train_test_split(np.arange(len(y)), test_size=0.25, random_state=0)
    Xs = (X - X.mean(axis=0)) / X.std(axis=0)
    np.testing.assert_allclose(sim.data_test, Xs[test], atol=1e-12)
    np.testing.assert_array_equal(sim.target_test, y[test])
    np.testing.assert_allclose(sim.data_real, Xs[train], atol=1e-12)
    np.testing.assert_array_equal(sim.target_real, y[train])
