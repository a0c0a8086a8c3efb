package hybrid

// EndpointURL is endpointURL, for the external test of the URL forms.
var EndpointURL = endpointURL
