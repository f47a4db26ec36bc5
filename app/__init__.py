"""firestep's web service."""

from starlette.convertors import IntegerConvertor, register_url_convertor


class _IdDigits(IntegerConvertor):
    """A path's `{id:int}` of at most 4,300 digits, the most Python turns into an int: a longer one matched
    `[0-9]+` and its conversion raised (a 500); now it names no route (404). Registered here, before any module
    of the app declares a route."""

    regex = "[0-9]{1,4300}"


register_url_convertor("int", _IdDigits())
